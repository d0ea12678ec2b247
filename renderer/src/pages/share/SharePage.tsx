import { useId, useState, type FormEvent } from 'react';
import { MoneyInput } from '../../components/MoneyInput';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { MAX_LINK_QUANTITY } from '../../../../api/contract/limits';
import { centsToDollars, dollarsToCents } from '../../../../api/contract/money';
import { INCOMPLETE_LINK, INVALID_AMOUNT, QUANTITY_REQUIRED } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { useActiveLinkCount, useCreateLink } from '../../api/links';
import type { SearchProduct } from '../../api/types';
import { ClockIcon, GiftIcon } from '../../components/Icons';
import { JoinSettingCheckbox } from '../../components/JoinSetting';
import { ProductSearch } from '../../components/ProductSearch';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { formatDollars, isValidAmount, parseDollars } from '../../format';
import { linkPath } from '../../linkText';
import { productTotal } from '../../productPrice';
import { useOpenBalanceDialog } from '../../state/balance';
import { balanceAtom, userAtom } from '../../state/session';
import { Choice, GIVE_OPTIONS, TYPE_OPTIONS, type GiveOrReceive, type LinkType } from './Choice';
import { LinkReady } from './LinkReady';
import { SelectedItem } from './SelectedItem';
import './SharePage.css';

function parseQuantity(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= MAX_LINK_QUANTITY ? n : null;
}

export function SharePage() {
  usePageTitle('Create a link');
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const create = useCreateLink();
  const amountId = useId();
  const quantityId = useId();

  const [giveOrReceive, setGiveOrReceive] = useState<GiveOrReceive | null>(null);
  const [type, setType] = useState<LinkType | null>(null);
  const [amount, setAmount] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [item, setItem] = useState<SearchProduct | null>(null);
  const [fieldError, setFieldError] = useState<{ field: 'amount' | 'quantity' | 'form'; message: string } | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const creating = create.isPending;
  const created = create.data ?? null;
  // One active link at a time: say so up front when there already is one.
  const activeLinks = useActiveLinkCount(user?.username ?? '').data?.totalLinks ?? 0;

  if (!user) return null;

  const isGive = giveOrReceive === 'give';
  const amountValue = parseDollars(amount);
  const quantityValue = isGive ? parseQuantity(quantity) : 1;
  let total: number | null = null;
  if (type === 'currency' && isValidAmount(amountValue) && quantityValue !== null) {
    total = centsToDollars((dollarsToCents(amountValue) ?? 0) * quantityValue);
  } else if (type === 'item' && item) {
    total = productTotal(item);
  }
  const needsFunds = isGive && total !== null && total > balance;

  function validate(): boolean {
    if (!giveOrReceive || !type) {
      setFieldError({ field: 'form', message: INCOMPLETE_LINK });
      return false;
    }
    if (type === 'currency') {
      if (!isValidAmount(amountValue)) {
        setFieldError({ field: 'amount', message: INVALID_AMOUNT });
        return false;
      }
      if (isGive && quantityValue === null) {
        setFieldError({ field: 'quantity', message: QUANTITY_REQUIRED });
        return false;
      }
    } else if (!item) {
      setFieldError({ field: 'form', message: INCOMPLETE_LINK });
      return false;
    }
    setFieldError(null);
    return true;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (creating || !user) return;
    setSubmitError(null);
    if (!validate() || !giveOrReceive || !type) return;
    if (needsFunds) {
      openBalanceDialog();
      return;
    }
    create.mutate(
      {
        creatorUserId: user._id,
        creatorUsername: user.username,
        details:
          type === 'currency'
            ? { giveorreceive: giveOrReceive, type, amount: amountValue ?? undefined, initialQuantity: quantityValue ?? undefined }
            : { giveorreceive: giveOrReceive, type, itemId: item?.itemId },
      },
      {
        onSuccess: () => window.scrollTo({ top: 0 }),
        onError: (err) => setSubmitError(errorMessage(err, 'An error occurred when creating your link. Please try again later.')),
      },
    );
  }

  if (created) return <LinkReady link={created} />;

  const amountError = fieldError?.field === 'amount' ? fieldError.message : null;
  const quantityError = fieldError?.field === 'quantity' ? fieldError.message : null;
  const formError = fieldError?.field === 'form' ? fieldError.message : null;

  return (
    <div className="share">
      <header className="page-header">
        <h1>Create a link</h1>
        <p>Give or ask for money or an item, then share the link.</p>
      </header>

      {activeLinks > 0 ? (
        <div className="alert alert--info share__active" role="note">
          <p>You already have an active link. You can hold one active link at a time.</p>
          <Link className="btn btn--sm" to={linkPath(user.username)}>
            View your link
          </Link>
        </div>
      ) : null}

      <form className="card share__form" onSubmit={onSubmit} noValidate aria-busy={creating}>
        <Choice
          legend="Do you want to give or receive?"
          name="giveorreceive"
          value={giveOrReceive}
          options={GIVE_OPTIONS}
          onChange={(value) => {
            setGiveOrReceive(value);
            setFieldError(null);
          }}
        />
        <Choice
          legend="Money or an item?"
          name="type"
          value={type}
          options={TYPE_OPTIONS}
          onChange={(value) => {
            setType(value);
            setFieldError(null);
          }}
        />

        {type === 'currency' ? (
          <div className="share__fields">
            <div className="field">
              <label htmlFor={amountId}>Amount</label>
              <MoneyInput
                id={amountId}
                value={amount}
                aria-invalid={amountError !== null}
                aria-errormessage={amountError ? `${amountId}-error` : undefined}
                aria-describedby={`${amountId}-hint`}
                onChange={(event) => {
                  setAmount(event.target.value);
                  // A message about the amount goes once the amount is right.
                  if (amountError && isValidAmount(parseDollars(event.target.value))) setFieldError(null);
                }}
              />
              <p id={`${amountId}-hint`} className="field-hint">
                {isGive
                  ? 'What each person who uses the link receives.'
                  : 'The total you are asking for. Friends can chip in together until it is reached.'}
              </p>
              {amountError ? (
                <p id={`${amountId}-error`} className="field-error" role="alert">
                  {amountError}
                </p>
              ) : null}
            </div>
            {isGive ? (
              <div className="field">
                <label htmlFor={quantityId}>Quantity</label>
                <input
                  id={quantityId}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min="1"
                  max={MAX_LINK_QUANTITY}
                  step="1"
                  value={quantity}
                  aria-invalid={quantityError !== null}
                  aria-describedby={`${quantityId}-hint`}
                  onChange={(event) => {
                    setQuantity(event.target.value);
                    // 'Please enter how many times…' goes once a valid quantity is typed.
                    if (quantityError && parseQuantity(event.target.value) !== null) setFieldError(null);
                  }}
                />
                <p id={`${quantityId}-hint`} className="field-hint">
                  How many people can use this link.
                </p>
                {quantityError ? (
                  <p className="field-error" role="alert">
                    {quantityError}
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        ) : null}

        {type === 'item' ? (
          item ? (
            <SelectedItem item={item} onChange={() => setItem(null)} />
          ) : (
            <ProductSearch
              onSelect={(product) => {
                setItem(product);
                setFieldError(null);
              }}
            />
          )
        ) : null}

        {total !== null ? (
          <div className="share__total">
            <span>{isGive ? 'Total cost' : 'Total'}</span>
            <strong>{formatDollars(total)}</strong>
          </div>
        ) : null}
        {isGive ? (
          <p className="share__balance muted small">
            Your balance: {formatDollars(balance)}
            {needsFunds ? ' — add funds to create this link.' : ''}
          </p>
        ) : null}

        <ul className="share__notes">
          {isGive ? (
            <li>
              <ClockIcon size={16} />
              <span>Unused links refund your balance after 24 hours.</span>
            </li>
          ) : giveOrReceive === 'receive' ? (
            <li>
              <ClockIcon size={16} />
              <span>
                {type === 'item'
                  ? 'Your link stays open for 24 hours, or until someone gives the item.'
                  : 'Your link stays open for 24 hours, or until the gifts reach what you ask for.'}
              </span>
            </li>
          ) : null}
          <li>
            <GiftIcon size={16} />
            <span>You can hold one active link at a time.</span>
          </li>
        </ul>

        <JoinSettingCheckbox />

        {formError ? (
          <div className="alert" role="alert">
            {formError}
          </div>
        ) : null}
        {submitError ? (
          <div className="alert" role="alert">
            {submitError}
          </div>
        ) : null}

        {needsFunds ? (
          <button type="button" className="btn btn--gradient btn--block" onClick={openBalanceDialog}>
            Add Funds
          </button>
        ) : (
          <button type="submit" className="btn btn--primary btn--block" disabled={creating}>
            {creating ? <Spinner size={18} light label="Creating your link" /> : null}
            Create
          </button>
        )}
      </form>
    </div>
  );
}
