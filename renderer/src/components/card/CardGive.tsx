import { lazy, Suspense, useId, useState } from 'react';
import { formatDollars } from '../../format';
import { useSavedCard } from '../../api/wallet';
import { useSubscriptionConfig } from '../../api/subscriptions';
import { Spinner } from '../Spinner';
import type { CardInput } from './card';
import { SandboxCardForm } from './SandboxCardForm';
import type { CardPayment } from './useCardDeposit';
import './CardGive.css';

const StripeCardForm = lazy(() => import('./StripeCardForm'));

interface CardGiveProps {
  userId: string;
  /** The gift, and what the card is charged (what the balance is missing), in dollars. */
  amount: number;
  charge: number;
  busy: boolean;
  /** Checks the amount; false when it cannot be given (the form says why). */
  canGive: () => boolean;
  onGive: (payment: CardPayment) => void;
  /** No card can be taken here (Stripe without a publishable key): the balance dialog instead. */
  onAddFunds: () => void;
}

/**
 * The short balance's one step: the card form (the sandbox's test-mode form, or Stripe Elements) or the saved card,
 * and one button, 'Give $5.00', that charges the card for what is missing and gives.
 */
export function CardGive({ userId, amount, charge, busy, canGive, onGive, onAddFunds }: CardGiveProps) {
  const config = useSubscriptionConfig();
  const saved = useSavedCard(userId);
  const [anotherCard, setAnotherCard] = useState(false);
  const [save, setSave] = useState(false);
  const saveId = useId();
  const label = `Give ${formatDollars(amount)}`;

  if (config.isPending || saved.isPending) return <Spinner label="Loading the card form" />;
  const card = saved.data ?? null;
  const chargeLine = (
    <p className="muted small card-give__charge">
      {formatDollars(charge)} is charged to your card, then {formatDollars(amount)} is given.
    </p>
  );

  if (card && !anotherCard) {
    return (
      <div className="card-give">
        {chargeLine}
        <p className="card-give__saved">Paid with card ending {card.last4}</p>
        <button
          type="button"
          className="btn btn--gradient btn--block"
          disabled={busy}
          onClick={() => canGive() && onGive({ kind: 'saved' })}
        >
          {busy ? <Spinner size={18} light label="Giving" /> : null}
          {label}
        </button>
        <button type="button" className="btn btn--ghost btn--sm card-give__other" disabled={busy} onClick={() => setAnotherCard(true)}>
          Use another card
        </button>
      </div>
    );
  }

  const saveBox = (
    <label className="card-give__save" htmlFor={saveId}>
      <input id={saveId} type="checkbox" checked={save} disabled={busy} onChange={(e) => setSave(e.target.checked)} />
      <span>Save this card</span>
    </label>
  );

  if (config.data?.provider === 'stripe') {
    const publishableKey = config.data.publishableKey;
    // Without a key Stripe Elements cannot load: the balance dialog says what is wrong.
    if (!publishableKey)
      return (
        <button type="button" className="btn btn--gradient btn--block" onClick={onAddFunds}>
          Add Funds
        </button>
      );
    return (
      <div className="card-give">
        {chargeLine}
        <Suspense fallback={<Spinner label="Loading the card form" />}>
          <StripeCardForm
            publishableKey={publishableKey}
            submitLabel={label}
            busy={busy}
            onPay={(confirm) => canGive() && onGive({ kind: 'elements', confirm, save })}
          >
            {saveBox}
          </StripeCardForm>
        </Suspense>
      </div>
    );
  }

  return (
    <div className="card-give">
      {chargeLine}
      <SandboxCardForm
        submitLabel={label}
        busy={busy}
        onPay={(typed: CardInput) => canGive() && onGive({ kind: 'card', card: typed, save })}
      >
        {saveBox}
      </SandboxCardForm>
    </div>
  );
}
