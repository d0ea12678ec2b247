import { useMemo, useState, type FormEvent } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { PAYMENT_INCOMPLETE, PAYMENT_STATUS_UNCLEAR } from '../../../../api/contract/texts';
import { formatDollars } from '../../format';
import { PaymentError, type ConfirmCard } from './useSubscribe';
import '../../components/card/CardForm.css';

/**
 * Stripe Elements (PAYMENTS=stripe). This module is loaded only by the subscription page
 * (`React.lazy`), and Stripe's script only when it renders (`@stripe/stripe-js/pure`), so no other
 * page downloads either.
 */

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
  price: number;
  busy: boolean;
  onPay: (confirm: ConfirmCard) => void;
}

export default function StripeCardForm({ publishableKey, ...props }: StripeCardFormProps) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe}>
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ price, busy, onPay }: Omit<StripeCardFormProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [complete, setComplete] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    onPay(async (clientSecret) => {
      const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, { payment_method: { card } });
      if (error) throw new PaymentError(`Error: ${error.message ?? 'The payment failed.'}`);
      if (!paymentIntent) throw new PaymentError(PAYMENT_INCOMPLETE);
      if (paymentIntent.status === 'succeeded') return paymentIntent.id;
      if (paymentIntent.status === 'processing') throw new PaymentError(PAYMENT_STATUS_UNCLEAR);
      throw new PaymentError(PAYMENT_INCOMPLETE);
    });
  };

  return (
    <form className="card-form" onSubmit={submit} aria-busy={busy}>
      <div className="field">
        <span className="field-label">Card</span>
        <div className="input card-form__stripe">
          <CardElement options={{ disabled: busy, hidePostalCode: false }} onChange={(e) => setComplete(e.complete)} />
        </div>
      </div>
      <button type="submit" className="btn btn--gradient btn--block" disabled={busy || !stripe || !complete}>
        {busy ? 'Processing…' : `Pay ${formatDollars(price)} and subscribe`}
      </button>
    </form>
  );
}
