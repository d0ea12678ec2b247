import { useId, useState } from 'react';
import { useAtomValue } from 'jotai';
import { QUICK_AMOUNTS } from '../../../../api/contract/limits';
import { GIVE_FAILED, INVALID_AMOUNT, overGoal } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import type { useGive } from '../../api/links';
import type { LinkView } from '../../api/types';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { MoneyInput } from '../../components/MoneyInput';
import { Spinner } from '../../components/Spinner';
import { formatAmount, formatDollars, isValidAmount, parseDollars } from '../../format';
import { useOpenBalanceDialog } from '../../state/balance';
import { balanceAtom } from '../../state/session';

/**
 * Give to a receive link: a quick amount or another (an item link's price is fixed), confirmed
 * first. A group gift takes any amount up to what is left: quick amounts above it are disabled.
 */
export function GiveAction({ link, give }: { link: LinkView; give: ReturnType<typeof useGive> }) {
  const balance = useAtomValue(balanceAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const customId = useId();
  const isItem = link.details.type === 'item';
  const [quick, setQuick] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const left = link.progress?.left ?? null;
  const amount = isItem ? link.details.amount : (quick ?? parseDollars(custom));
  // Under the minimum only to give exactly what a group gift has left.
  const valid = isValidAmount(amount) || (amount !== null && amount > 0 && amount === left);
  const overLeft = valid && left !== null && amount > left;
  const short = valid && amount > balance;

  function startGive() {
    setError(null);
    if (!valid) {
      setError(INVALID_AMOUNT);
      return;
    }
    if (overLeft && left !== null) {
      setError(overGoal(formatDollars(left)));
      return;
    }
    setConfirming(amount);
  }

  const busy = give.isPending;

  function confirm(value: number) {
    // Success shows the outcome in place of this form.
    give.mutate(value, {
      onError: (err) => {
        setConfirming(null);
        setError(errorMessage(err, GIVE_FAILED));
      },
    });
  }

  return (
    <section className="card link-actions" aria-label="Give to this link">
      {isItem ? (
        <p>
          Give this item for <strong>{formatDollars(link.details.amount)}</strong> (price and shipping).
        </p>
      ) : (
        <fieldset className="give-amounts">
          <legend>Choose an amount</legend>
          {left !== null ? <p className="give-amounts__left">{formatDollars(left)} left to give</p> : null}
          <div className="give-amounts__quick">
            {QUICK_AMOUNTS.map((value) => (
              <button
                key={value}
                type="button"
                className={quick === value ? 'btn give-amounts__button is-selected' : 'btn give-amounts__button'}
                aria-pressed={quick === value}
                disabled={left !== null && value > left}
                onClick={() => {
                  setQuick(value);
                  setCustom('');
                  setError(null);
                }}
              >
                {formatAmount(value)}
              </button>
            ))}
          </div>
          <div className="field">
            <label htmlFor={customId}>Other amount</label>
            <MoneyInput
              id={customId}
              value={custom}
              onChange={(event) => {
                setCustom(event.target.value);
                setQuick(null);
                setError(null);
              }}
            />
          </div>
        </fieldset>
      )}
      <p className="muted small">Your balance: {formatDollars(balance)}</p>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      {short ? (
        <button type="button" className="btn btn--gradient btn--block" onClick={openBalanceDialog}>
          Add Funds
        </button>
      ) : (
        <button type="button" className="btn btn--gradient btn--block" onClick={startGive} disabled={busy}>
          {busy ? <Spinner size={18} light label="Giving" /> : null}
          Give
        </button>
      )}
      {confirming !== null ? (
        <ConfirmPopup
          message={`Are you sure you want to give ${formatDollars(confirming)}?`}
          primaryLabel="Yes"
          onPrimary={() => confirm(confirming)}
          secondaryLabel="No"
          onSecondary={() => setConfirming(null)}
          busy={busy}
        />
      ) : null}
    </section>
  );
}
