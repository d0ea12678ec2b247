import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { PaymentIntentResult, Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { CardDepositRequest } from '../../../../api/contract/wallet';
import { confirmCardDeposit, startCardElementsDeposit } from '../../api/card-elements';
import './CardForm.css';

/**
 * Stripe Elements (PAYMENTS=stripe), for the subscription page and the one-step gift. This module
 * is only ever loaded with `React.lazy`, and Stripe's script only when the form renders
 * (`@stripe/stripe-js/pure`), so no other page downloads either.
 */

/** Confirms a PaymentIntent with the card typed in; the caller reads the outcome (and tells the server). */
export type ConfirmCardPayment = (clientSecret: string) => Promise<PaymentIntentResult>;

type GiftTarget = CardDepositRequest['for'];

/** A one-step gift's card in Stripe Elements (useCardDeposit). */
export interface ElementsPayment {
  kind: 'elements';
  confirm: ConfirmCardPayment;
  save: boolean;
}

/**
 * Stripe Elements: the server makes the PaymentIntent (202), Stripe.js confirms the card, and the
 * server reads the outcome, whatever Stripe.js said (a decline then answers its usual text). A
 * key whose deposit was already paid answers it at once.
 */
export async function depositWithElements(dollars: number, payment: ElementsPayment, key: string, target?: GiftTarget) {
  const started = await startCardElementsDeposit({ amount: dollars, elements: true, save: payment.save || undefined, for: target }, key);
  if ('new_balance' in started) return started;
  await payment.confirm(started.clientSecret);
  return confirmCardDeposit(started.paymentIntentId);
}

const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

interface StripeCardFormProps {
  publishableKey: string;
  submitLabel: string;
  busy: boolean;
  onPay: (confirm: ConfirmCardPayment) => void;
  /** More fields below the card (a 'Save this card' box). */
  children?: ReactNode;
}

export default function StripeCardForm({ publishableKey, ...props }: StripeCardFormProps) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ submitLabel, busy, onPay, children }: Omit<StripeCardFormProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [complete, setComplete] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    onPay((clientSecret) => stripe.confirmCardPayment(clientSecret, { payment_method: { card } }));
  };

  return (
    <form className="card-form" onSubmit={submit} aria-busy={busy}>
      <div className="field">
        <span className="field-label">Card</span>
        <div className="input card-form__stripe">
          <CardElement options={{ disabled: busy, hidePostalCode: false }} onChange={(e) => setComplete(e.complete)} />
        </div>
      </div>
      {children}
      <button type="submit" className="btn btn--gradient btn--block" disabled={busy || !stripe || !complete}>
        {busy ? 'Processing…' : submitLabel}
      </button>
    </form>
  );
}
