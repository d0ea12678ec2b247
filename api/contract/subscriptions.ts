import { z } from 'zod';
import { SUBSCRIPTION_PRODUCT_ID } from './limits.js';

/**
 * The weekly subscription (SPEC 2 Subscription page, 3, 4, 7, 8, 9; issue 12): the four calls the
 * spec names, their answers, and what the page needs to know about how to pay.
 */

/** SPEC 9: one product, $1.99 a week; its id is fixed and never shown (defined in limits.ts, which the renderer may import). */
export { SUBSCRIPTION_PRODUCT_ID };

/**
 * incomplete → active → (renewal) active | past_due → canceled (SPEC 4, issue 12). A canceled
 * subscription keeps its benefits until `subscriptionEndDate` when it was canceled at period end.
 */
export type SubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'canceled';

/** How the weekly charge is paid: a card (through the payments provider) or the Giftlink balance (the ledger). */
export type SubscriptionPaymentMethod = 'card' | 'balance';

const userIdField = z.string().min(1).max(64).optional();
const productIdField = z.string().min(1).max(100);

/**
 * POST /subscriptions/create-payment-intent {userId, productId, paymentMethod?} → {clientSecret}.
 * Starts (or reuses) the user's incomplete subscription and answers the secret the page confirms
 * the first payment with (Stripe Elements, or the sandbox card form). With `paymentMethod:
 * 'balance'` nothing is confirmed by a card: use create-subscription with `paymentMethod: 'balance'`.
 */
export const CreatePaymentIntentBody = z.object({
  userId: userIdField,
  productId: productIdField,
});
export type CreatePaymentIntentRequest = z.input<typeof CreatePaymentIntentBody>;
export interface CreatePaymentIntentResponse {
  clientSecret: string;
}

/**
 * POST /subscriptions/create-subscription {userId, paymentIntentId, productId} → {subscriptionId}.
 * Card: `paymentIntentId` is the confirmed first payment; the server checks with the provider that
 * it succeeded (never trusting the page). Balance: `paymentMethod: 'balance'` and no
 * `paymentIntentId`; the first week moves through the ledger.
 */
export const CreateSubscriptionBody = z.object({
  userId: userIdField,
  paymentIntentId: z.string().min(1).max(255).optional(),
  productId: productIdField,
  paymentMethod: z.enum(['card', 'balance']).default('card'),
});
export type CreateSubscriptionRequest = z.input<typeof CreateSubscriptionBody>;
export interface CreateSubscriptionResponse {
  subscriptionId: string;
}

/** GET /subscriptions/get-subscription-info/{userId} → {subscriptionInfo}. */
export interface SubscriptionInfo {
  /** null when the user never subscribed. */
  status: SubscriptionStatus | null;
  /** ISO date: when the paid period ends (renewal date while active; end of benefits once canceled). */
  subscriptionEndDate: string | null;
  /** The payment provider's subscription id (ours for the sandbox and balance payments). */
  id: string | null;
  /** True when canceled at period end: benefits last until subscriptionEndDate, then stop. */
  cancelAtPeriodEnd: boolean;
  paymentMethod: SubscriptionPaymentMethod | null;
  /** Whether the benefits are on right now (the same rule as `isSubscribed`). */
  isSubscribed: boolean;
  /** The private community server, for subscribers only (COMMUNITY_INVITE_URL); else null. */
  communityInviteUrl: string | null;
}
export interface SubscriptionInfoResponse {
  subscriptionInfo: SubscriptionInfo;
}

/** POST /subscriptions/cancel {userId, stripeCustomerId, stripeSubscriptionId} → {isCanceled}. */
export const CancelSubscriptionBody = z.object({
  userId: userIdField,
  stripeCustomerId: z.string().max(255).nullish(),
  stripeSubscriptionId: z.string().max(255).nullish(),
});
export type CancelSubscriptionRequest = z.input<typeof CancelSubscriptionBody>;
export interface CancelSubscriptionResponse {
  isCanceled: boolean;
}

/**
 * GET /subscriptions/config → how the page takes a card: the provider's name, whether it is test
 * mode, and Stripe's publishable key when the provider is Stripe.
 */
export interface SubscriptionConfigResponse {
  provider: 'sandbox' | 'stripe';
  testMode: boolean;
  publishableKey: string | null;
  /** Dollars a week. */
  price: number;
}

/**
 * POST /subscriptions/sandbox/confirm (PAYMENTS=sandbox only): the sandbox's stand-in for Stripe
 * Elements' confirmCardPayment. Stripe's documented test numbers: 4242 4242 4242 4242 succeeds,
 * 4000 0000 0000 0002 is declined (card_declined), 4000 0000 0000 9995 fails for insufficient
 * funds. The card number never leaves this call and is never stored.
 */
export const SandboxConfirmBody = z.object({
  clientSecret: z.string().min(1).max(255),
  cardNumber: z.string().min(12).max(23),
  /** MM/YY */
  expiry: z.string().min(4).max(7),
  cvc: z.string().min(3).max(4),
});
export type SandboxConfirmRequest = z.input<typeof SandboxConfirmBody>;
export interface SandboxConfirmResponse {
  paymentIntentId: string;
  status: 'succeeded';
}
