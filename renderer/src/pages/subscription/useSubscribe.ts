import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NETWORK_ERROR, PAYMENT_INCOMPLETE, PAYMENT_STATUS_UNCLEAR } from '../../../../api/contract/texts';
import type { SubscriptionPaymentMethod } from '../../../../api/contract/subscriptions';
import { ApiError } from '../../api/client';
import {
  afterSubscriptionChange,
  confirmSandboxPayment,
  createPaymentIntent,
  createSubscription,
  getSubscriptionInfo,
} from '../../api/subscriptions';
import { randomUuid } from '../../ids';
import { cardForConfirm, type CardInput } from '../../components/card/card';
import type { ConfirmCardPayment } from '../../components/card/StripeCardForm';

/**
 * A failure whose text is already what the page shows (PRODUCT.md §8): 'Error: …' with the server's or
 * the card processor's text, or one of the two payment texts.
 */
export class PaymentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentError';
  }
}

/** 'Error: <the server's text>' (PRODUCT.md §8), for any failure of a subscription call. */
export function subscriptionErrorText(err: unknown): string {
  if (err instanceof PaymentError) return err.message;
  // The server's own PRODUCT.md §8 payment texts stand alone.
  if (err instanceof Error && (err.message === PAYMENT_STATUS_UNCLEAR || err.message === PAYMENT_INCOMPLETE)) return err.message;
  if (err instanceof ApiError) return `Error: ${err.isNetworkError ? NETWORK_ERROR : err.message}`;
  if (err instanceof Error && err.message) return `Error: ${err.message}`;
  return `Error: ${NETWORK_ERROR}`;
}

/** The confirmed PaymentIntent's id from Stripe.js's answer, or a PaymentError with the text to show. */
async function confirmedWithStripe(confirm: ConfirmCardPayment, clientSecret: string): Promise<string> {
  const { error, paymentIntent } = await confirm(clientSecret);
  if (error) throw new PaymentError(`Error: ${error.message ?? 'The payment failed.'}`);
  if (!paymentIntent) throw new PaymentError(PAYMENT_INCOMPLETE);
  if (paymentIntent.status === 'succeeded') return paymentIntent.id;
  if (paymentIntent.status === 'processing') throw new PaymentError(PAYMENT_STATUS_UNCLEAR);
  throw new PaymentError(PAYMENT_INCOMPLETE);
}

export type SubscribeInput =
  | { kind: 'sandbox'; card: CardInput }
  | { kind: 'stripe'; confirm: ConfirmCardPayment }
  | { kind: 'balance' }
  /** Canceled but not ended: subscribing again resumes without a charge. */
  | { kind: 'resume'; paymentMethod: SubscriptionPaymentMethod };

/**
 * The subscribe flow: create-payment-intent → confirm the card (sandbox or Stripe) →
 * create-subscription, or create-subscription straight from the balance. The server checks with
 * the provider that the payment went through; afterwards the page re-reads the subscription, and
 * a payment that went through without an active subscription is 'status is unclear'.
 */
export function useSubscribe(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SubscribeInput): Promise<void> => {
      if (input.kind === 'balance' || input.kind === 'resume') {
        await createSubscription(userId, { paymentMethod: input.kind === 'balance' ? 'balance' : input.paymentMethod }, randomUuid());
      } else {
        const { clientSecret } = await createPaymentIntent(userId, randomUuid());
        if (!clientSecret) throw new PaymentError(PAYMENT_INCOMPLETE);
        const paymentIntentId =
          input.kind === 'sandbox'
            ? (await confirmSandboxPayment({ clientSecret, ...cardForConfirm(input.card) })).paymentIntentId
            : await confirmedWithStripe(input.confirm, clientSecret);
        if (!paymentIntentId) throw new PaymentError(PAYMENT_INCOMPLETE);
        try {
          await createSubscription(userId, { paymentMethod: 'card', paymentIntentId }, randomUuid());
        } catch (err) {
          // The card was charged; if the server could not settle it, the user must not pay twice blindly.
          if (err instanceof ApiError && (err.isNetworkError || err.status >= 500)) throw new PaymentError(PAYMENT_STATUS_UNCLEAR);
          throw err;
        }
      }
      let subscribed = false;
      try {
        subscribed = (await getSubscriptionInfo(userId)).subscriptionInfo.isSubscribed;
      } catch {
        subscribed = false;
      }
      if (!subscribed) throw new PaymentError(PAYMENT_STATUS_UNCLEAR);
    },
    onSettled: () => afterSubscriptionChange(queryClient),
  });
}
