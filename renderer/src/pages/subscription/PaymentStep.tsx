import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ADD_MONEY } from '../../../../api/contract/texts';
import type { SubscriptionConfigResponse, SubscriptionPaymentMethod } from '../../../../api/contract/subscriptions';
import { ChevronLeftIcon, WalletIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatDollars } from '../../format';
import { SandboxCardForm } from '../../components/card/SandboxCardForm';
import type { SubscribeInput } from './useSubscribe';

const StripeCardForm = lazy(() => import('../../components/card/StripeCardForm'));

interface PaymentStepProps {
  config: SubscriptionConfigResponse;
  balance: number;
  busy: boolean;
  /** The last attempt's text (PRODUCT.md §8), or null. */
  error: string | null;
  onPay: (input: SubscribeInput) => void;
  onBack: () => void;
}

/** Step 2: pay by card (the sandbox form or Stripe Elements) or from the Giftlink balance. */
export function PaymentStep({ config, balance, busy, error, onPay, onBack }: PaymentStepProps) {
  const [method, setMethod] = useState<SubscriptionPaymentMethod>('card');
  const price = config.price;
  const canUseBalance = balance >= price;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  return (
    <section className="card sub-pay" aria-labelledby="sub-pay-title">
      <div className="sub-pay__head">
        <button type="button" className="btn btn--ghost btn--sm" onClick={onBack} disabled={busy}>
          <ChevronLeftIcon size={16} />
          Back
        </button>
        <h2 id="sub-pay-title" ref={headingRef} tabIndex={-1}>
          Payment
        </h2>
        <p className="muted small">{formatDollars(price)} a week · renews every week until you cancel</p>
      </div>

      <fieldset className="segmented sub-pay__methods" disabled={busy}>
        <legend>How would you like to pay?</legend>
        <div className="segmented__options">
          <label className="segmented__option">
            <input type="radio" name="sub-method" value="card" checked={method === 'card'} onChange={() => setMethod('card')} />
            <span className="segmented__text">Card</span>
          </label>
          <label className="segmented__option">
            <input type="radio" name="sub-method" value="balance" checked={method === 'balance'} onChange={() => setMethod('balance')} />
            <span className="segmented__text">Giftlink balance</span>
          </label>
        </div>
      </fieldset>

      {error ? (
        <div className="alert" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </div>
      ) : null}

      {method === 'balance' ? (
        <div className="sub-balance">
          <p className="sub-balance__line">
            <WalletIcon size={18} />
            <span>
              Your balance: <strong>{formatDollars(balance)}</strong>
            </span>
          </p>
          <p className="muted small">The weekly {formatDollars(price)} is taken from your balance each week until you cancel.</p>
          <button
            type="button"
            className="btn btn--gradient btn--block"
            disabled={busy || !canUseBalance}
            aria-describedby={canUseBalance ? undefined : 'sub-balance-hint'}
            onClick={() => onPay({ kind: 'balance' })}
          >
            {busy ? 'Processing…' : 'Pay with your Giftlink balance'}
          </button>
          {canUseBalance ? null : (
            <p id="sub-balance-hint" className="field-hint">
              {ADD_MONEY} You need at least {formatDollars(price)}.
            </p>
          )}
        </div>
      ) : config.provider === 'stripe' && config.publishableKey ? (
        <Suspense fallback={<Spinner label="Loading the card form" />}>
          <StripeCardForm
            publishableKey={config.publishableKey}
            submitLabel={`Pay ${formatDollars(price)} and subscribe`}
            busy={busy}
            onPay={(confirm) => onPay({ kind: 'stripe', confirm })}
          />
        </Suspense>
      ) : (
        <SandboxCardForm
          submitLabel={`Pay ${formatDollars(price)} and subscribe`}
          busy={busy}
          onPay={(card) => onPay({ kind: 'sandbox', card })}
        />
      )}
    </section>
  );
}
