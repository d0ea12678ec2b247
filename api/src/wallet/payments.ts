/**
 * The payment provider seam. Deposits charge the user's payment method, withdrawals pay out to
 * it; the ledger records both against `system:payments`.
 *
 * Shaped for a Stripe adapter: `charge` maps to a PaymentIntent (confirmed with the customer's
 * saved payment method, `idempotencyKey` passed as Stripe's Idempotency-Key), `payout` to a
 * Transfer/Payout to the user's connected account. Calls are never made inside a database
 * transaction (issue 12, wallet/intents.ts): the wallet records a pending intent (a withdrawal
 * also holds the amount in `system:payouts-pending`), calls the provider, then settles in a second
 * transaction. The idempotency key is the intent's: asking again with it (recovery after a crash
 * or a lost answer, `resolvePendingPayments`) must get the first result, never a second charge.
 *
 * How a provider reports failure matters (`isDefiniteFailure`): throw a 4xx `AppError` (e.g.
 * `paymentDeclined`) or `payoutFailed()` only when the provider said no for good (nothing was or
 * will be moved; the wallet then moves nothing, or gives a held withdrawal back); any other error
 * (a timeout, a network error, a provider's 5xx, a 5xx AppError) means the outcome is unknown, and
 * the intent stays pending until the provider is asked again with the same key.
 * (A Stripe deposit that needs customer action would instead credit the ledger from the
 * verified `payment_intent.succeeded` webhook, with the event id as the idempotency key.)
 */
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Database } from '../db/index.js';
import { createStripePayments } from './stripe-payments.js';

export interface PaymentRequest {
  userId: string;
  amountCents: number;
  /** The same key always gets the same result from the provider (the wallet's payment intent's key). */
  idempotencyKey: string;
}

export interface PaymentResult {
  /** The provider's id for the charge or payout. */
  reference: string;
}

export interface PaymentsProvider {
  readonly name: string;
  /** Takes money from the user's payment method (a deposit). */
  charge(request: PaymentRequest): Promise<PaymentResult>;
  /** Sends money to the user's payout method (a withdrawal). */
  payout(request: PaymentRequest): Promise<PaymentResult>;
}

export const paymentDeclined = () => new AppError(402, 'payment_declined', 'Your payment was declined. Please try another payment method.');
export const payoutFailed = () => new AppError(502, 'payout_failed', 'The transfer to your account failed. Please try again later.');

/**
 * Whether a provider's error means it said no for good (see the top of this file): a 4xx
 * AppError, or `payout_failed`. Anything else leaves the payment's outcome unknown.
 */
export function isDefiniteFailure(err: unknown): err is AppError {
  return err instanceof AppError && (err.status < 500 || err.code === 'payout_failed');
}

/**
 * Sandbox amounts that fail, like a test-mode card processor's test cards: $4,000.02 is
 * declined (as Stripe's 4000 0000 0000 0002 card) and a $4,000.02 payout fails.
 */
export const SANDBOX_FAILING_CENTS = 400_002;

/** The embedded default: instant, offline, always succeeds except for SANDBOX_FAILING_CENTS. */
export class SandboxPayments implements PaymentsProvider {
  readonly name = 'sandbox';

  /** The reference derives from the idempotency key, so a repeat gets the same one. */
  private reference(prefix: string, request: PaymentRequest): string {
    const digest = crypto.createHash('sha256').update(`${prefix}:${request.idempotencyKey}`).digest('hex');
    return `${prefix}_sandbox_${digest.slice(0, 24)}`;
  }

  async charge(request: PaymentRequest): Promise<PaymentResult> {
    if (request.amountCents === SANDBOX_FAILING_CENTS) throw paymentDeclined();
    return { reference: this.reference('ch', request) };
  }

  async payout(request: PaymentRequest): Promise<PaymentResult> {
    if (request.amountCents === SANDBOX_FAILING_CENTS) throw payoutFailed();
    return { reference: this.reference('po', request) };
  }
}

/** The provider PAYMENTS names; Stripe's (stripe-payments.ts) reads the user's Stripe Customer from `db`. */
export function createPaymentsProvider(config: Pick<Config, 'payments' | 'stripe'>, db?: Database): PaymentsProvider {
  switch (config.payments) {
    case 'sandbox':
      return new SandboxPayments();
    case 'stripe':
      if (!db) throw new Error('The Stripe payments provider needs the database');
      return createStripePayments(config, db);
  }
}
