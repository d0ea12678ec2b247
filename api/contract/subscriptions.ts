import { z } from 'zod';
import { dollars, isoTime } from './common.js';
import { SUBSCRIPTION_PRODUCT_ID } from './limits.js';

/**
 * The weekly subscription (PRODUCT.md §2's subscription page, §3, §4, §7, §8, §9): the four calls the
 * spec names, their answers, and what the page needs to know about how to pay.
 */

/** PRODUCT.md §9: one product, $1.99 a week; its id is fixed and never shown (defined in limits.ts, which the renderer may import). */
export { SUBSCRIPTION_PRODUCT_ID };

/**
 * incomplete → active → (renewal) active | past_due → canceled (PRODUCT.md §4). A canceled
 * subscription keeps its benefits until `subscriptionEndDate` when it was canceled at period end.
 */
export const SubscriptionStatus = z.enum(['incomplete', 'active', 'past_due', 'canceled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** How the weekly charge is paid: a card (through the payments provider) or the Giftlink balance (the ledger). */
export const SubscriptionPaymentMethod = z.enum(['card', 'balance']);
export type SubscriptionPaymentMethod = z.infer<typeof SubscriptionPaymentMethod>;

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
export const CreatePaymentIntentResponse = z.object({ clientSecret: z.string() });
export type CreatePaymentIntentResponse = z.infer<typeof CreatePaymentIntentResponse>;

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
  paymentMethod: SubscriptionPaymentMethod.default('card'),
});
export const CreateSubscriptionResponse = z.object({ subscriptionId: z.string() });
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;

/** GET /subscriptions/get-subscription-info/{userId}: the user's own id (anyone else's is a 403). */
export const SubscriptionInfoParams = z.object({ userId: z.string().min(1).max(64) });

/** GET /subscriptions/get-subscription-info/{userId} → {subscriptionInfo}. */
export const SubscriptionInfo = z.object({
  /** null when the user never subscribed. */
  status: SubscriptionStatus.nullable(),
  /** ISO date: when the paid period ends (renewal date while active; end of benefits once canceled). */
  subscriptionEndDate: isoTime.nullable(),
  /** The payment provider's subscription id (ours for the sandbox and balance payments). */
  id: z.string().nullable(),
  /** True when canceled at period end: benefits last until subscriptionEndDate, then stop. */
  cancelAtPeriodEnd: z.boolean(),
  paymentMethod: SubscriptionPaymentMethod.nullable(),
  /** Whether the benefits are on right now (the same rule as `isSubscribed`). */
  isSubscribed: z.boolean(),
  /** The private community server, for subscribers only (COMMUNITY_INVITE_URL); else null. */
  communityInviteUrl: z.string().nullable(),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfo>;
export const SubscriptionInfoResponse = z.object({ subscriptionInfo: SubscriptionInfo });
export type SubscriptionInfoResponse = z.infer<typeof SubscriptionInfoResponse>;

/** POST /subscriptions/cancel {userId, stripeCustomerId, stripeSubscriptionId} → {isCanceled}. */
export const CancelSubscriptionBody = z.object({
  userId: userIdField,
  stripeCustomerId: z.string().max(255).nullish(),
  stripeSubscriptionId: z.string().max(255).nullish(),
});
export const CancelSubscriptionResponse = z.object({ isCanceled: z.boolean() });
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponse>;

/**
 * GET /subscriptions/config → how the page takes a card: the provider's name, whether it is test
 * mode, and Stripe's publishable key when the provider is Stripe.
 */
export const SubscriptionConfigResponse = z.object({
  provider: z.enum(['sandbox', 'stripe']),
  testMode: z.boolean(),
  publishableKey: z.string().nullable(),
  /** Dollars a week. */
  price: dollars,
});
export type SubscriptionConfigResponse = z.infer<typeof SubscriptionConfigResponse>;

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
export const SandboxConfirmResponse = z.object({ paymentIntentId: z.string(), status: z.literal('succeeded') });
export type SandboxConfirmResponse = z.infer<typeof SandboxConfirmResponse>;
