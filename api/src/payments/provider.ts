import { AppError, badRequest } from '../errors.js';
import { CARD_BLOCKED, PAYMENT_INCOMPLETE, PAYMENT_STATUS_UNCLEAR, PAYOUTS_NOT_READY } from '../../contract/texts.js';
import { CARD_NOT_REMOVED } from '../../contract/account-texts.js';
import type { PayoutDestination } from './connect.js';

/**
 * The payments provider: deposits and withdrawals (the wallet) and the weekly subscription. Two
 * implementations: the sandbox (embedded, offline, Stripe's test card numbers; `sandbox.ts`) and
 * Stripe (the official SDK; `stripe.ts`), built once (create.ts, into Deps). It is called only
 * outside database transactions: the caller records what it is about to do, calls the provider,
 * then settles in a transaction (or the verified webhook settles it), so a slow or failing
 * provider never holds the database and a crash in between is resolved on restart.
 *
 * Every call that creates something takes an idempotency key: the same key always gets the same
 * object back from the provider.
 */

export interface ProviderCustomer {
  /** `cus_…` at Stripe. */
  id: string;
}

/** What the page needs to confirm the first weekly payment, and the ids to remember. */
export interface StartedSubscription {
  /** `sub_…` at Stripe: created with payment_behavior 'default_incomplete'. */
  subscriptionId: string;
  /** The first invoice's PaymentIntent: `pi_…`. */
  paymentIntentId: string;
  /** The PaymentIntent's client secret, which the page confirms (Stripe Elements or the sandbox form). */
  clientSecret: string;
}

/** The provider's view of a subscription: what the service settles from. */
export interface ProviderSubscriptionState {
  subscriptionId: string;
  customerId: string;
  status: 'incomplete' | 'active' | 'past_due' | 'canceled' | 'incomplete_expired' | 'unpaid' | 'trialing';
  /** End of the current paid period. */
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

export interface ProviderPaymentIntentState {
  id: string;
  status: 'succeeded' | 'processing' | 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'canceled';
  amountCents: number;
  /** The subscription this first payment belongs to, when the provider knows it. */
  subscriptionId: string | null;
}

/** What the wallet asks of the provider: deposits and withdrawals. */
export interface WalletPayments {
  readonly name: string;
  /** Takes money from the user's payment method (a deposit). */
  charge(request: PaymentRequest): Promise<PaymentResult>;
  /** Sends money to the user's connected account (a withdrawal); without a destination it is refused. */
  payout(request: PayoutRequest): Promise<PaymentResult>;
  /**
   * Charges a card for a deposit: the card the page collected (optionally saved for next time),
   * or the one saved before. Without a source (recovery after a crash) it answers what happened
   * to this idempotency key and never charges anew: a card it never saw is `cardNotCharged`.
   */
  chargeCard(request: CardChargeRequest): Promise<PaymentResult>;
  /** The card saved for the user's next deposits, or null. */
  savedCard(userId: string): Promise<SavedCard | null>;
  /**
   * Forgets the saved card at the provider (Stripe detaches it from the Customer). An authorisation
   * or a payment already made with it still settles: it holds the card itself.
   */
  removeCard(userId: string): Promise<void>;
  /**
   * A deposit's PaymentIntent that the page confirms with Stripe Elements (the card never reaches
   * us), once per idempotency key; `save` keeps the card on the user's customer for next time.
   * Stripe only: the sandbox takes its test card in its own form (400 invalid_card).
   */
  startCardPayment(request: CardPaymentRequest): Promise<CardPayment>;
  /** Reads such a PaymentIntent: the server never trusts the page to say it succeeded. */
  readCardPayment(paymentIntentId: string): Promise<CardPayment>;
  /** Cancels such a PaymentIntent, so that its client secret can no longer pay (refused once it succeeded). */
  cancelCardPayment(paymentIntentId: string): Promise<CardPayment>;
  /**
   * Authorises a card without taking the money (Stripe's `capture_method: 'manual'`), once per
   * key; without a source it answers what became of the key and never authorises anew.
   */
  authoriseCard(request: CardChargeRequest): Promise<CardHold>;
  /** Takes the money an authorisation holds; the same key answers the first capture. */
  captureCard(reference: string, idempotencyKey: string): Promise<CardHold>;
  /** Lets an authorisation go: the card is never charged (a captured one is answered as it is). */
  cancelCardHold(reference: string): Promise<CardHold>;
  /** Gives a taken card payment back in full (a deposit or a captured authorisation), once per key. */
  refundCard(reference: string, idempotencyKey: string): Promise<void>;
  /** The card's fingerprint (the same card always gives the same), before anything is charged; null when unknown. */
  cardFingerprint(userId: string, source: CardSource): Promise<string | null>;
  /** Every card payment the provider took since `since`, for reconciliation with the ledger. */
  listCardPayments(since: Date): Promise<ProviderCharge[]>;
  /** Every withdrawal's Transfer the provider made since `since`, for reconciliation with the ledger. */
  listTransfers(since: Date): Promise<ProviderTransfer[]>;
}

/** An authorisation (requires_capture), then taken (succeeded), let go (canceled) or given back (refunded). */
export interface CardHold {
  reference: string;
  status: 'requires_capture' | 'succeeded' | 'canceled' | 'refunded';
  amountCents: number;
  fingerprint: string | null;
}

/** A card payment as the provider records it: what reconciliation compares with the ledger. */
export interface ProviderCharge {
  reference: string;
  amountCents: number;
  /** Only `succeeded` money was taken and kept; `refunded` was given back. */
  status: 'succeeded' | 'refunded' | 'other';
  createdAt: Date;
}

/** A withdrawal's Transfer to a connected account as the provider records it. */
export interface ProviderTransfer {
  reference: string;
  amountCents: number;
  /** How much of it was taken back from the connected account (a reversal); 0 when it stands. */
  reversedCents: number;
  /** The connected account it went to. */
  destination: string;
  /** The idempotency key of the withdrawal it pays (its metadata names it); null for an older one that does not. */
  idempotencyKey: string | null;
  createdAt: Date;
}

export interface CardPaymentRequest extends PaymentRequest {
  /** The wallet's payment intent it pays (the PaymentIntent's metadata). */
  intentId: string;
  save: boolean;
  /** Only authorise (`capture_method: 'manual'`): a one-step gift captures it where the gift lands. */
  hold?: boolean;
}

/** A deposit's PaymentIntent as the wallet settles it. */
export interface CardPayment {
  paymentIntentId: string;
  /** What the page confirms with; never stored. */
  clientSecret: string;
  status: ProviderPaymentIntentState['status'];
  amountCents: number;
  /** The wallet's payment intent named in its metadata, or null when it is not a deposit's. */
  intentId: string | null;
  /** Its last attempt was declined by the card's bank. */
  declined: boolean;
  /** Authorised and waiting to be captured (`requires_capture`). */
  capturable: boolean;
}

/** A card as the sandbox's test-mode form sends it (Stripe's page never sends one: Elements keeps it). */
export interface CardDetails {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardSource = { kind: 'card'; card: CardDetails; save: boolean } | { kind: 'saved' };

export interface CardChargeRequest extends PaymentRequest {
  /** Null when asking again after a crash: the card was forgotten, only the key's outcome is left. */
  source: CardSource | null;
}

/** What is shown of a saved card: its last 4 digits, never the number. */
export interface SavedCard {
  last4: string;
}

export interface PaymentsProvider extends WalletPayments {
  readonly name: 'sandbox' | 'stripe';
  /** Finds or creates the user's customer (the user's `stripeCustomerId` once made). */
  ensureCustomer(input: {
    userId: string;
    email: string;
    existingCustomerId: string | null;
    idempotencyKey: string;
  }): Promise<ProviderCustomer>;
  /** Deletes the user's customer and what it holds (a closed account); none is nothing to do. */
  deleteCustomer(userId: string): Promise<void>;
  /** Creates a weekly subscription whose first invoice waits for the page to confirm its PaymentIntent. */
  startSubscription(input: { customerId: string; idempotencyKey: string }): Promise<StartedSubscription>;
  /** Reads a PaymentIntent: the server never trusts the page to say a payment succeeded. */
  getPaymentIntent(paymentIntentId: string): Promise<ProviderPaymentIntentState>;
  /** Reads a subscription's current state. */
  getSubscription(subscriptionId: string): Promise<ProviderSubscriptionState>;
  /** Cancels at period end (benefits last until then); `resume` undoes it before the end. */
  setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean, idempotencyKey: string): Promise<ProviderSubscriptionState>;
  /**
   * Cancels at once, with no refund: a past-due subscription replaced by a new one must stop at
   * the provider too, or the provider would keep retrying its unpaid invoice and charge for a
   * subscription we no longer track. Cancelling one already canceled changes nothing.
   */
  cancelNow(subscriptionId: string): Promise<void>;
}

/** A subscription's paid period: a week (the sandbox's, and the Stripe Price's). */
export const SUBSCRIPTION_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;

/*
 * Deposits and withdrawals. Deposits charge the user's payment method, withdrawals pay out to
 * it; the ledger records both against `system:payments`.
 *
 * Shaped for a Stripe adapter: `charge` maps to a PaymentIntent (confirmed with the customer's
 * saved payment method, `idempotencyKey` passed as Stripe's Idempotency-Key), `payout` to a
 * Transfer to the user's connected account. Calls are never made inside a database
 * transaction (wallet/intents.ts): the wallet records a pending intent (a withdrawal
 * also holds the amount in `system:payouts-pending`), calls the provider, then settles in a second
 * transaction. The idempotency key is the intent's: asking again with it (recovery after a crash
 * or a lost answer, `resolvePendingPayments`) must get the first result, never a second charge.
 *
 * How a provider reports failure matters (`isDefiniteFailure`): throw a 4xx `AppError` (e.g.
 * `paymentDeclined`) or `payoutFailed()` only when the provider said no for good (nothing was or
 * will be moved; the wallet then moves nothing, or gives a held withdrawal back); any other error
 * (a timeout, a network error, a provider's 5xx, a 5xx AppError) means the outcome is unknown, and
 * the intent stays pending until the provider is asked again with the same key.
 * A deposit by a new card with Stripe Elements is the page's to confirm (`startCardPayment`): the
 * wallet settles it from what Stripe says of the PaymentIntent (wallet/card-elements.ts).
 */
export interface PaymentRequest {
  userId: string;
  amountCents: number;
  /** The same key always gets the same result from the provider (the wallet's payment intent's key). */
  idempotencyKey: string;
}

/** A withdrawal: to the user's connected account (payouts/), when they have one. */
export interface PayoutRequest extends PaymentRequest {
  destination?: PayoutDestination | null;
}

export interface PaymentResult {
  /** The provider's id for the charge or payout. */
  reference: string;
}

export const paymentDeclined = () => new AppError(402, 'payment_declined', 'Your payment was declined. Please try another payment method.');
export const cardDeclined = () => new AppError(402, 'card_declined', 'Your card was declined.');
/** A payment that was never completed (not confirmed, or canceled): 402 when the page says it paid, else 400. */
export const paymentIncomplete = (status: 400 | 402 = 400) => new AppError(status, 'payment_incomplete', PAYMENT_INCOMPLETE);
/** The card's bank has not decided yet: the payment may still succeed. */
export const paymentProcessing = () => new AppError(409, 'payment_processing', PAYMENT_STATUS_UNCLEAR);
export const cardBlocked = () => new AppError(402, 'card_blocked', CARD_BLOCKED);
export const cardNotCharged = () => new AppError(402, 'card_not_charged', 'Your card was not charged. Please try again.');
/** The provider still shows a card after removing it: nothing is known to be gone. */
export const cardStillSaved = () => new AppError(502, 'payment_provider_error', CARD_NOT_REMOVED);
export const noSavedCard = () => badRequest('There is no saved card. Please enter your card details.', 'no_saved_card');
/** A withdrawal with no connected account ready to receive it. */
export const payoutsNotReady = () => badRequest(PAYOUTS_NOT_READY, 'payouts_not_ready');
export const payoutFailed = () => new AppError(502, 'payout_failed', 'The transfer to your account failed. Please try again later.');

/**
 * Whether a provider's error means it said no for good (see the top of this file): a 4xx
 * AppError, or `payout_failed`. Anything else leaves the payment's outcome unknown.
 */
export function isDefiniteFailure(err: unknown): err is AppError {
  return err instanceof AppError && (err.status < 500 || err.code === 'payout_failed');
}
