/**
 * Deposits and withdrawals through Stripe (PAYMENTS=stripe), behind the wallet's PaymentsProvider.
 *
 * - `charge` (a deposit) is a PaymentIntent confirmed off-session with the user's saved card: the
 *   Customer's default payment method, else the card the subscription saved on it
 *   (save_default_payment_method 'on_subscription'). A user with no Customer or no card is told to
 *   add one; a decline is the wallet's usual 402.
 * - `payout` (a withdrawal): Stripe can send money to a person only through Connect, to a
 *   connected account of theirs. The user's connected account is read from their Customer's
 *   metadata `connected_account` (`acct_…`, set when they are onboarded to Connect, which this
 *   product does not do yet); with one, a Transfer goes to it; without one the withdrawal is a
 *   400 'Withdrawals need a connected Stripe account.' and no money moves at Stripe.
 *
 * The idempotency key the wallet gives is Stripe's Idempotency-Key, so a retry after a lost answer
 * gets the first PaymentIntent or Transfer back.
 */
import type Stripe from 'stripe';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { AppError } from '../errors.js';
import { callStripe, requireStripeConfig, stripeClient } from '../subscriptions/stripe-provider.js';
import { UserEntity } from '../users/entity.js';
import type { PaymentRequest, PaymentResult, PaymentsProvider } from './payments.js';

export const cardRequired = () =>
  new AppError(402, 'payment_method_required', 'Add a card first: subscribe with a card, then deposits use the same card.');
export const connectedAccountRequired = () => new AppError(400, 'payout_account_required', 'Withdrawals need a connected Stripe account.');
/** A charge Stripe did not complete off-session (a card asking for 3-D Secure, say); a plain decline keeps Stripe's text (stripeError). */
export const chargeNotCompleted = () =>
  new AppError(
    402,
    'payment_declined',
    'Your card needs you to confirm this payment, which a deposit cannot ask for. Please try another card.',
  );
export const transferFailed = () =>
  new AppError(502, 'payout_failed', 'The transfer to your Stripe account failed. Please try again later.');

export class StripePayments implements PaymentsProvider {
  readonly name = 'stripe';

  constructor(
    private readonly stripe: Stripe,
    private readonly db: Database,
  ) {}

  /** The user's Stripe Customer, or null when they never paid by card. */
  private async customerOf(userId: string): Promise<Stripe.Customer | null> {
    const user = await this.db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, stripeCustomerId: true } });
    const customerId = user?.stripeCustomerId;
    if (!customerId) return null;
    const customer = await callStripe(() => this.stripe.customers.retrieve(customerId));
    return customer.deleted ? null : customer;
  }

  /** The card to charge: the Customer's default payment method, else the first card saved on it. */
  private async cardOf(customer: Stripe.Customer): Promise<string | null> {
    const preferred = customer.invoice_settings?.default_payment_method;
    if (preferred) return typeof preferred === 'string' ? preferred : preferred.id;
    const cards = await callStripe(() => this.stripe.customers.listPaymentMethods(customer.id, { type: 'card', limit: 1 }));
    return cards.data[0]?.id ?? null;
  }

  async charge(request: PaymentRequest): Promise<PaymentResult> {
    const customer = await this.customerOf(request.userId);
    const card = customer && (await this.cardOf(customer));
    if (!customer || !card) throw cardRequired();
    const intent = await callStripe(() =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          customer: customer.id,
          payment_method: card,
          confirm: true,
          off_session: true,
          description: 'Giftlink balance deposit',
          metadata: { userId: request.userId, purpose: 'deposit' },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    if (intent.status !== 'succeeded') throw chargeNotCompleted();
    return { reference: intent.id };
  }

  async payout(request: PaymentRequest): Promise<PaymentResult> {
    const customer = await this.customerOf(request.userId);
    const account = customer?.metadata?.connected_account;
    if (!account || !account.startsWith('acct_')) throw connectedAccountRequired();
    try {
      const transfer = await callStripe(() =>
        this.stripe.transfers.create(
          {
            amount: request.amountCents,
            currency: 'usd',
            destination: account,
            metadata: { userId: request.userId, purpose: 'withdrawal' },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return { reference: transfer.id };
    } catch (err) {
      // Only Stripe's definite no (a 4xx other than an idempotency conflict) is a failed payout,
      // whose held money the wallet gives back. A timeout or a 5xx leaves the outcome unknown: it
      // goes through unchanged, and the intent stays pending until Stripe is asked again with the
      // same key (the transfer may have been made).
      if (err instanceof AppError && err.status < 500 && err.status !== 409) throw transferFailed();
      throw err;
    }
  }
}

/** StripePayments for PAYMENTS=stripe; it reads the user's Customer id from the database. */
export function createStripePayments(config: Pick<Config, 'stripe'>, db: Database): StripePayments {
  return new StripePayments(stripeClient(requireStripeConfig(config)), db);
}
