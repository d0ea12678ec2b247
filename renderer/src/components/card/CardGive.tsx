import { lazy, Suspense, useId, useState } from 'react';
import { formatDollars } from '../../format';
import { useSavedCard } from '../../api/wallet';
import { useSubscriptionConfig } from '../../api/subscriptions';
import { Spinner } from '../Spinner';
import type { CardInput } from './card';
import { SandboxCardForm } from './SandboxCardForm';
import { loadStripeCardForm, type CardPayment } from './useCardDeposit';
import './CardGive.css';

const StripeCardForm = lazy(loadStripeCardForm);

interface CardGiveProps {
  userId: string;
  /** The gift, and what the card is charged (what the balance is missing), in dollars. */
  amount: number;
  charge: number;
  busy: boolean;
  /** Checks the amount; false when it cannot be given (the form says why). */
  canGive: () => boolean;
  onGive: (payment: CardPayment) => void;
}

/**
 * The short balance's one step: the card form (the sandbox's test-mode form, or Stripe Elements) or the saved card,
 * and one button, 'Give $5.00', that charges the card for what is missing and gives.
 */
export function CardGive({ userId, amount, charge, busy, canGive, onGive }: CardGiveProps) {
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
  // PAYMENTS=stripe always has a publishable key (the server will not start without one).
  const stripeKey = config.data?.provider === 'stripe' && config.data.publishableKey;

  return (
    <div className="card-give">
      {chargeLine}
      {stripeKey ? (
        <Suspense fallback={<Spinner label="Loading the card form" />}>
          <StripeCardForm
            publishableKey={stripeKey}
            submitLabel={label}
            busy={busy}
            onPay={(confirm) => canGive() && onGive({ kind: 'elements', confirm, save })}
          >
            {saveBox}
          </StripeCardForm>
        </Suspense>
      ) : (
        <SandboxCardForm
          submitLabel={label}
          busy={busy}
          onPay={(typed: CardInput) => canGive() && onGive({ kind: 'card', card: typed, save })}
        >
          {saveBox}
        </SandboxCardForm>
      )}
    </div>
  );
}
