import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { INVALID_AMOUNT, overGoal } from '../../../../api/contract/texts';
import type { useGive } from '../../api/links';
import type { LinkView } from '../../api/types';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { NoteField } from '../../components/NoteField';
import { Spinner } from '../../components/Spinner';
import { formatDollars, isGiveAmount, parseDollars } from '../../format';
import { balanceAtom, userAtom } from '../../state/session';
import { CardGive } from '../../components/card/CardGive';
import { shortfallOf } from '../../components/card/useCardDeposit';
import { AmountPicker, useAmountChoice } from './AmountPicker';
import { useCardGive } from './useCardGive';

/**
 * Give to a receive link: a quick amount or another (an item link's price is fixed), confirmed
 * first. A group gift takes any amount up to what is left (AmountPicker).
 * A balance short of the amount gives in one step: the card pays what is missing (CardGive).
 */
export function GiveAction({ link, give }: { link: LinkView; give: ReturnType<typeof useGive> }) {
  const balance = useAtomValue(balanceAtom);
  const user = useAtomValue(userAtom);
  const isItem = link.details.type === 'item';
  // The amount picked before logging in or joining comes back chosen (useAmountChoice).
  const [choice, setChoice] = useAmountChoice();
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const { giveNow, chargeAndGive, busy, error, setError } = useCardGive(give);

  const left = link.progress?.left ?? null;
  const amount = isItem ? link.details.amount : (choice.quick ?? parseDollars(choice.typed));
  const valid = isGiveAmount(amount, left);
  const overLeft = valid && left !== null && amount > left;
  const short = valid && amount > balance;

  /** Whether the amount can be given; else says why. */
  function checkAmount(): boolean {
    setError(null);
    if (!valid) {
      setError(INVALID_AMOUNT);
      return false;
    }
    if (overLeft && left !== null) {
      setError(overGoal(formatDollars(left)));
      return false;
    }
    return true;
  }

  function startGive() {
    if (checkAmount()) setConfirming(amount);
  }

  function confirm(value: number) {
    // Success shows the outcome in place of this form.
    giveNow(value, note, () => setConfirming(null));
  }

  return (
    <section className="card link-actions" aria-label="Give to this link">
      {isItem ? (
        <p>
          Give this item for <strong>{formatDollars(link.details.amount)}</strong> (price and shipping).
        </p>
      ) : (
        <AmountPicker
          choice={choice}
          left={left}
          onChange={(next) => {
            setChoice(next);
            setError(null);
          }}
        />
      )}
      <NoteField value={note} onChange={setNote} disabled={busy} />
      <p className="muted small">Your balance: {formatDollars(balance)}</p>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      {short && user ? (
        <CardGive
          userId={user._id}
          amount={amount}
          charge={shortfallOf(amount, balance)}
          busy={busy}
          canGive={checkAmount}
          onGive={(payment) => void chargeAndGive(link.id, amount, shortfallOf(amount, balance), payment, note)}
        />
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
