import { useId, useRef, useState, type FormEvent } from 'react';
import { MoneyInput } from './MoneyInput';
import { logEvent } from '../analytics';
import { useAtomValue, useSetAtom } from 'jotai';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { sessionQuery } from '../api/auth';
import { INVALID_AMOUNT, MONEY_MOVE_FAILED, WITHDRAW_NEEDS_PAYOUTS } from '../../../api/contract/texts';
import { usePayouts } from '../api/payouts';
import { ApiError } from '../api/client';
import { useMoveMoney, type MoneyAction } from '../api/wallet';
import type { User } from '../api/types';
import { formatDollars, isValidAmount, parseDollars } from '../format';
import { BALANCE_REFRESH_ERROR, balanceDialogOpenAtom } from '../state/balance';
import { balanceAtom, userAtom } from '../state/session';
import { BalanceHolds } from './BalanceHolds';
import { Dialog } from './Dialog';
import { Spinner } from './Spinner';
import './BalanceDialog.css';

/** The server's text when it says more than the spec's catch-all (the amount rule, an overdraft). */
function moneyErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 400 && err.message) return err.message;
  return MONEY_MOVE_FAILED;
}

/** Whether the session's holds are missing (a login's answer) or name a release already past. */
function holdsOutdated(user: User | null | undefined): boolean {
  if (!user) return false;
  return user.available === undefined || (user.nextReleaseAt != null && Date.parse(user.nextReleaseAt) <= Date.now());
}

/** The deposit/withdrawal modal; rendered by the layout while `balanceDialogOpenAtom` is true. */
export function BalanceDialog() {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const setOpen = useSetAtom(balanceDialogOpenAtom);
  // Money moving is pushed; read again only what no push tells: holds a login answer lacks, or one released since.
  const { isRefetchError: refreshFailed } = useQuery({
    ...sessionQuery,
    refetchOnMount: (query) => (holdsOutdated(query.state.data) ? 'always' : false),
  });
  const move = useMoveMoney(user?._id ?? '');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const busy: MoneyAction | null = move.isPending ? move.variables.action : null;
  const payouts = usePayouts();
  // Withdrawals go out only once payouts are set up; until then the form says where to do it.
  const payoutsMissing = payouts.data !== undefined && payouts.data.status !== 'ready';
  const payoutsHintId = useId();

  const close = () => {
    if (!busy) setOpen(false);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !user) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const action: MoneyAction = submitter instanceof HTMLButtonElement && submitter.value === 'withdraw' ? 'withdraw' : 'deposit';
    const value = parseDollars(amount);
    setNotice(null);
    if (!isValidAmount(value)) {
      setError(INVALID_AMOUNT);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    move.mutate(
      { action, amount: value },
      {
        onSuccess: ({ new_balance }) => {
          logEvent('bankTransaction', { type: action === 'deposit' ? 'deposit' : 'withdrawal', amount: value });
          setAmount('');
          setNotice(
            `${action === 'deposit' ? 'Deposited' : 'Withdrew'} ${formatDollars(value)}. Your balance is now ${formatDollars(new_balance)}.`,
          );
        },
        onError: (err) => setError(moneyErrorMessage(err)),
      },
    );
  }

  const body = (
    <form className="balance-form" onSubmit={onSubmit} noValidate aria-busy={busy !== null}>
      <p className="balance-form__sandbox" role="note">
        Sandbox — test money, no real card is charged
      </p>
      {refreshFailed ? (
        <div className="alert" role="alert">
          {BALANCE_REFRESH_ERROR}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={inputId}>Amount</label>
        <MoneyInput
          ref={inputRef}
          id={inputId}
          min=".01"
          value={amount}
          aria-invalid={error === INVALID_AMOUNT}
          aria-describedby={hintId}
          onChange={(event) => setAmount(event.target.value)}
          data-autofocus
        />
        <p id={hintId} className="field-hint">
          From $1 up to $999,999.99.
        </p>
      </div>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      {notice ? (
        <div className="alert alert--success" role="status">
          {notice}
        </div>
      ) : null}
      <div className="balance-form__buttons">
        <button type="submit" name="action" value="deposit" className="btn btn--primary" disabled={busy !== null}>
          {busy === 'deposit' ? <Spinner size={18} light label="Depositing" /> : null}
          Deposit
        </button>
        <button
          type="submit"
          name="action"
          value="withdraw"
          className="btn"
          disabled={busy !== null || payoutsMissing}
          aria-describedby={payoutsMissing ? payoutsHintId : undefined}
        >
          {busy === 'withdraw' ? <Spinner size={18} label="Withdrawing" /> : null}
          Withdraw
        </button>
      </div>
      {payoutsMissing ? (
        <p id={payoutsHintId} className="balance-form__payouts" role="note">
          {WITHDRAW_NEEDS_PAYOUTS}{' '}
          <Link to={user ? `/profile/${user.username}/settings#payouts` : '/'} onClick={() => setOpen(false)}>
            Settings → Payouts
          </Link>
        </p>
      ) : null}
      <p className="balance-form__history">
        <Link to="/money" onClick={() => setOpen(false)}>
          See your money history
        </Link>
      </p>
    </form>
  );

  return (
    <Dialog
      title="Your balance"
      message={
        <>
          <span className="balance-dialog__amount">{formatDollars(balance)}</span>
          <span className="visually-hidden"> in your balance</span>
          <BalanceHolds className="balance-dialog__holds" />
        </>
      }
      body={body}
      onDismiss={close}
    >
      <button type="button" className="btn btn--ghost" onClick={close} disabled={busy !== null}>
        Close
      </button>
    </Dialog>
  );
}
