/**
 * The payment provider seam. Deposits charge the user's payment method, withdrawals pay out to
 * it; the ledger records both against `system:payments`.
 *
 * Shaped for a Stripe adapter: `charge` maps to a PaymentIntent (confirmed with the customer's
 * saved payment method, `idempotencyKey` passed as Stripe's Idempotency-Key), `payout` to a
 * Transfer/Payout to the user's connected account. Calls are made inside the wallet's
 * transaction, after the ledger has accepted the movement, so a failure rolls the ledger back;
 * the idempotency key makes a retry after a lost commit reuse the provider's first result.
 * (A Stripe deposit that needs customer action would instead credit the ledger from the
 * verified `payment_intent.succeeded` webhook, with the event id as the idempotency key.)
 */
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

export interface PaymentRequest {
  userId: string;
  amountCents: number;
  /** The same key always gets the same result from the provider. */
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

/** The provider PAYMENTS names. */
export function createPaymentsProvider(config: Pick<Config, 'payments'>): PaymentsProvider {
  switch (config.payments) {
    case 'sandbox':
      return new SandboxPayments();
  }
}
