import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { MoneyInput } from '../components/MoneyInput';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { errorMessage, isAbortError } from '../api/client';
import { createLink, getActiveLinkCount } from '../api/links';
import type { LinkView, SearchProduct } from '../api/types';
import { INVALID_AMOUNT } from '../components/BalanceDialog';
import { CopyLink } from '../components/CopyLink';
import {
  CheckIcon,
  ClockIcon,
  CoinsIcon,
  GiftIcon,
  HandHeartIcon,
  PackageIcon,
} from '../components/Icons';
import { ProductSearch } from '../components/ProductSearch';
import { Spinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import { formatDollars, isValidAmount, parseDollars } from '../format';
import { randomUuid } from '../ids';
import { linkPath, linkSentence, linkUrl } from '../linkText';
import { productShipping, productTotal } from '../productPrice';
import { useOpenBalanceDialog, useRefreshBalance } from '../state/balance';
import { balanceAtom, userAtom } from '../state/session';
import './SharePage.css';

/** SPEC section 5. */
export const QUANTITY_REQUIRED = 'Please enter how many times this link can be used';
export const INCOMPLETE_LINK = 'Choose give or receive, currency or item, and an amount or an item.';
const MAX_QUANTITY = 1000;

type GiveOrReceive = 'give' | 'receive';
type LinkType = 'currency' | 'item';

interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  hint: string;
  icon: ReactNode;
}

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T | null;
  options: ChoiceOption<T>[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <fieldset className="segmented">
      <legend>{legend}</legend>
      <div className="segmented__options">
        {options.map((option) => (
          <label key={option.value} className="segmented__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-labelledby={`${id}-${option.value}`}
              aria-describedby={`${id}-${option.value}-hint`}
            />
            {option.icon}
            <span className="segmented__text">
              <span id={`${id}-${option.value}`}>{option.label}</span>
              <span id={`${id}-${option.value}-hint`} className="segmented__hint">
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const GIVE_OPTIONS: ChoiceOption<GiveOrReceive>[] = [
  { value: 'give', label: 'Give', hint: 'Send a gift', icon: <HandHeartIcon size={22} /> },
  { value: 'receive', label: 'Receive', hint: 'Ask for a gift', icon: <GiftIcon size={22} /> },
];

const TYPE_OPTIONS: ChoiceOption<LinkType>[] = [
  { value: 'currency', label: 'Currency', hint: 'An amount of money', icon: <CoinsIcon size={22} /> },
  { value: 'item', label: 'Item', hint: 'Something from the shop', icon: <PackageIcon size={22} /> },
];

function shippingText(shipping: number | null): string {
  if (shipping === null) return ' · shipping calculated';
  return shipping === 0 ? ' · free shipping' : ` + ${formatDollars(shipping)} shipping`;
}

function parseQuantity(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= MAX_QUANTITY ? n : null;
}

export function SharePage() {
  usePageTitle('Create a link');
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const refreshBalance = useRefreshBalance();
  const amountId = useId();
  const quantityId = useId();

  const [giveOrReceive, setGiveOrReceive] = useState<GiveOrReceive | null>(null);
  const [type, setType] = useState<LinkType | null>(null);
  const [amount, setAmount] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [item, setItem] = useState<SearchProduct | null>(null);
  const [fieldError, setFieldError] = useState<{ field: 'amount' | 'quantity' | 'form'; message: string } | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<LinkView | null>(null);
  const [activeLinks, setActiveLinks] = useState(0);

  const username = user?.username ?? '';

  // One active link at a time: say so up front when there already is one.
  useEffect(() => {
    if (!username) return;
    const controller = new AbortController();
    getActiveLinkCount(username, controller.signal).then(
      ({ totalLinks }) => setActiveLinks(totalLinks),
      (err: unknown) => {
        if (!isAbortError(err)) setActiveLinks(0);
      },
    );
    return () => controller.abort();
  }, [username]);

  if (!user) return null;

  const isGive = giveOrReceive === 'give';
  const amountValue = parseDollars(amount);
  const quantityValue = isGive ? parseQuantity(quantity) : 1;
  let total: number | null = null;
  if (type === 'currency' && isValidAmount(amountValue) && quantityValue !== null) {
    total = Math.round(amountValue * 100 * quantityValue) / 100;
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

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (creating || !user) return;
    setSubmitError(null);
    if (!validate() || !giveOrReceive || !type) return;
    if (needsFunds) {
      openBalanceDialog();
      return;
    }
    setCreating(true);
    try {
      const link = await createLink(
        {
          creatorUserId: user._id,
          creatorUsername: user.username,
          details:
            type === 'currency'
              ? { giveorreceive: giveOrReceive, type, amount: amountValue ?? undefined, initialQuantity: quantityValue ?? undefined }
              : { giveorreceive: giveOrReceive, type, itemId: item?.itemId },
        },
        randomUuid(),
      );
      setCreated(link);
      setActiveLinks(1);
      if (link.details.giveorreceive === 'give') void refreshBalance();
      window.scrollTo({ top: 0 });
    } catch (err) {
      setSubmitError(errorMessage(err, 'An error occurred when creating your link. Please try again later.'));
    } finally {
      setCreating(false);
    }
  }

  if (created) {
    return (
      <div className="share">
        <header className="page-header">
          <h1>Your link is ready</h1>
          <p>Share it anywhere: Instagram, X, Messages…</p>
        </header>
        <section className="card share__done" aria-labelledby="share-done-title">
          <div className="share__done-icon">
            <CheckIcon size={28} />
          </div>
          <h2 id="share-done-title">{linkSentence(created, true)}</h2>
          <p className="muted">
            {created.details.giveorreceive === 'give' && created.details.initialQuantity > 1
              ? `${created.details.initialQuantity} people can use it. `
              : ''}
            Unused links refund your balance after 24 hours.
          </p>
          <CopyLink url={linkUrl(created.creatorUsername)} />
          <Link className="btn btn--soft" to={linkPath(created.creatorUsername)}>
            Open your link
          </Link>
        </section>
      </div>
    );
  }

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
                onChange={(event) => setAmount(event.target.value)}
              />
              <p id={`${amountId}-hint`} className="field-hint">
                {isGive ? 'What each person who uses the link receives.' : 'What you are asking for.'}
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
                  max={MAX_QUANTITY}
                  step="1"
                  value={quantity}
                  aria-invalid={quantityError !== null}
                  aria-describedby={`${quantityId}-hint`}
                  onChange={(event) => setQuantity(event.target.value)}
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
            <div className="share__item">
              <span className="product-row__image share__item-image">
                {item.image?.imageUrl ? <img src={item.image.imageUrl} alt="" width={72} height={72} /> : <PackageIcon size={24} />}
              </span>
              <div className="share__item-text">
                <p className="share__item-label">Selected item</p>
                <p className="share__item-title">{item.title}</p>
                <p className="muted small">
                  {formatDollars(Number(item.price.value))}
                  {shippingText(productShipping(item))}
                  {item.condition ? ` · ${item.condition}` : ''}
                </p>
              </div>
              <button type="button" className="btn btn--sm" onClick={() => setItem(null)}>
                Change
              </button>
            </div>
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
          <li>
            <ClockIcon size={16} />
            <span>Unused links refund your balance after 24 hours.</span>
          </li>
          <li>
            <GiftIcon size={16} />
            <span>You can hold one active link at a time.</span>
          </li>
        </ul>

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
