/**
 * Payments through Stripe (PAYMENTS=stripe), on the official `stripe` SDK at the API version it
 * pins (`Stripe.API_VERSION`). A Customer per user (metadata userId), a Subscription on the weekly
 * Price (STRIPE_PRICE_ID) created with payment_behavior 'default_incomplete', so its first invoice
 * waits for the page to confirm its PaymentIntent with Stripe Elements. In this API version the
 * invoice carries the secret as `confirmation_secret.client_secret` and its PaymentIntent under
 * `payments` (the old `latest_invoice.payment_intent` is gone), and a subscription's period end is
 * on its items. Every call that creates or changes something sends an idempotency key.
 *
 * Called only outside database transactions (see provider.ts); Stripe's errors become AppErrors.
 *
 * Deposits and withdrawals:
 * - `charge` (a deposit) is a PaymentIntent confirmed off-session with the user's saved card: the
 *   Customer's default payment method, else the card the subscription saved on it
 *   (save_default_payment_method 'on_subscription'). A user with no Customer or no card is told to
 *   add one; a decline is the wallet's usual 402.
 * - A new card (the one-step gift) stays in Stripe Elements: `startCardPayment` creates a
 *   PaymentIntent (metadata userId, intentId, purpose 'card_deposit') that the page confirms, and
 *   the wallet reads it back (`readCardPayment`) or cancels it (`cancelCardPayment`).
 * - `payout` (a withdrawal): Stripe can send money to a person only through Connect: a Transfer
 *   to the user's connected account (payouts/, onboarded through stripe-connect.ts), which
 *   Stripe pays out to their bank on its schedule; without one it is refused and nothing moves.
 *
 * The idempotency key the wallet gives is Stripe's Idempotency-Key, so a retry after a lost answer
 * gets the first PaymentIntent or Transfer back.
 */
import type Stripe from 'stripe';
import { IsNull } from 'typeorm';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { AppError, badRequest } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import type {
  CardChargeRequest,
  CardHold,
  CardPayment,
  CardSource,
  ProviderCharge,
  ProviderTransfer,
  CardPaymentRequest,
  SavedCard,
  PaymentRequest,
  PaymentResult,
  PaymentsProvider,
  PayoutRequest,
  ProviderPaymentIntentState,
  ProviderSubscriptionState,
  StartedSubscription,
} from './provider.js';
import { payoutsNotReady } from './provider.js';
import { StripeHolds } from './stripe-holds.js';
import { listStripeTransfers } from './stripe-connect.js';
import { callStripe, paymentSetupIncomplete, requireStripeConfig, stripeClient } from './stripe-client.js';
import { firstPaymentIntentId, invoiceSubscriptionId, subscriptionState } from './stripe-subscriptions.js';

export const cardRequired = () =>
  new AppError(402, 'payment_method_required', 'Add a card first: subscribe with a card, then deposits use the same card.');
/** A charge Stripe did not complete off-session (a card asking for 3-D Secure, say); a plain decline keeps Stripe's text (stripeError). */
export const chargeNotCompleted = () =>
  new AppError(
    402,
    'payment_declined',
    'Your card needs you to confirm this payment, which a deposit cannot ask for. Please try another card.',
  );
export const transferFailed = () =>
  new AppError(502, 'payout_failed', 'The transfer to your Stripe account failed. Please try again later.');

const PAYMENT_INTENT_STATUSES: Record<string, ProviderPaymentIntentState['status']> = {
  succeeded: 'succeeded',
  processing: 'processing',
  requires_capture: 'processing',
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_confirmation',
  requires_action: 'requires_action',
  canceled: 'canceled',
};

const ELEMENTS_PURPOSES = new Set(['card_deposit', 'card_hold']);

/** A deposit's PaymentIntent as the wallet reads it. */
export function cardPaymentOf(intent: Stripe.PaymentIntent): CardPayment {
  return {
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: PAYMENT_INTENT_STATUSES[intent.status] ?? 'requires_payment_method',
    amountCents: intent.amount,
    intentId: ELEMENTS_PURPOSES.has(intent.metadata?.purpose ?? '') ? (intent.metadata?.intentId ?? null) : null,
    declined: intent.last_payment_error?.type === 'card_error',
    capturable: intent.status === 'requires_capture',
  };
}

export class StripePayments implements PaymentsProvider {
  readonly name = 'stripe';

  /** `db` holds each user's Stripe Customer id; `priceId` is the weekly Price (STRIPE_PRICE_ID). */
  private readonly holds: StripeHolds;

  constructor(
    private readonly stripe: Stripe,
    private readonly db: Database,
    private readonly priceId: string,
  ) {
    this.holds = new StripeHolds(stripe, async (userId) => {
      const customer = await this.customerOf(userId);
      const card = customer && (await this.cardOf(customer));
      if (!customer || !card) throw cardRequired();
      return { customerId: customer.id, paymentMethodId: card };
    });
  }

  authoriseCard(request: CardChargeRequest): Promise<CardHold> {
    return this.holds.authorise(request);
  }

  captureCard(reference: string, idempotencyKey: string): Promise<CardHold> {
    return this.holds.capture(reference, idempotencyKey);
  }

  cancelCardHold(reference: string): Promise<CardHold> {
    return this.holds.cancel(reference);
  }

  refundCard(reference: string, idempotencyKey: string): Promise<void> {
    return this.holds.refund(reference, idempotencyKey);
  }

  /** Stripe's fingerprint of the saved card (a new card stays in Elements, unseen here). */
  async cardFingerprint(userId: string, source: CardSource): Promise<string | null> {
    if (source.kind !== 'saved') return null;
    const customer = await this.customerOf(userId);
    const card = customer && (await this.cardOf(customer));
    return card ? this.holds.fingerprint(card) : null;
  }

  listCardPayments(since: Date): Promise<ProviderCharge[]> {
    return this.holds.list(since);
  }

  listTransfers(since: Date): Promise<ProviderTransfer[]> {
    return listStripeTransfers(this.stripe, since);
  }

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

  /**
   * Stripe's page keeps the card (Elements), so the only card charge made here is the saved
   * card's, off session; asking again after a crash repeats it with the same key, and Stripe
   * answers its stored result.
   */
  async chargeCard(request: CardChargeRequest): Promise<PaymentResult> {
    if (request.source?.kind === 'card') throw badRequest('Card details go to Stripe, not to Giftlink.', 'invalid_card');
    return this.charge(request);
  }

  /**
   * A deposit's PaymentIntent for Stripe Elements: the page confirms it with the card it keeps.
   * Saving the card needs a Customer (made now if the user has none, with the key subscriptions
   * use); `setup_future_usage` has Stripe attach the card to it once paid, where `cardOf` finds it.
   */
  async startCardPayment(request: CardPaymentRequest): Promise<CardPayment> {
    const customerId = await this.customerIdFor(request.userId, request.save);
    const intent = await callStripe(() =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          ...(customerId ? { customer: customerId } : {}),
          ...(request.save ? { setup_future_usage: 'off_session' as const } : {}),
          ...(request.hold ? { capture_method: 'manual' as const } : {}),
          description: request.hold ? 'Giftlink gift paid by card' : 'Giftlink balance deposit',
          metadata: { userId: request.userId, intentId: request.intentId, purpose: request.hold ? 'card_hold' : 'card_deposit' },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return cardPaymentOf(intent);
  }

  async readCardPayment(paymentIntentId: string): Promise<CardPayment> {
    return cardPaymentOf(await callStripe(() => this.stripe.paymentIntents.retrieve(paymentIntentId)));
  }

  async cancelCardPayment(paymentIntentId: string): Promise<CardPayment> {
    return cardPaymentOf(await callStripe(() => this.stripe.paymentIntents.cancel(paymentIntentId, { cancellation_reason: 'abandoned' })));
  }

  /** The user's Customer id; with `create`, one is made (and remembered) when they have none. */
  private async customerIdFor(userId: string, create: boolean): Promise<string | null> {
    const user = await this.db.manager.findOneOrFail(UserEntity, {
      where: { id: userId },
      select: { id: true, email: true, stripeCustomerId: true },
    });
    if (user.stripeCustomerId || !create) return user.stripeCustomerId;
    const customer = await this.ensureCustomer({
      userId,
      email: user.email,
      existingCustomerId: null,
      idempotencyKey: `customer-${userId}`,
    });
    await this.db.transaction((em) =>
      em.update(UserEntity, { id: userId, stripeCustomerId: IsNull() }, { stripeCustomerId: customer.id, updatedAt: new Date() }),
    );
    return customer.id;
  }

  async savedCard(userId: string): Promise<SavedCard | null> {
    const customer = await this.customerOf(userId);
    const card = customer && (await this.cardOf(customer));
    if (!card) return null;
    const method = await callStripe(() => this.stripe.paymentMethods.retrieve(card));
    return method.card ? { last4: method.card.last4 } : null;
  }

  /** Detaches every card on the Customer, so that none is left for `cardOf` to fall back on. */
  async removeCard(userId: string): Promise<void> {
    const customer = await this.customerOf(userId);
    if (!customer) return;
    const cards = await callStripe(() =>
      this.stripe.customers.listPaymentMethods(customer.id, { type: 'card', limit: 100 }).autoPagingToArray({ limit: 10_000 }),
    );
    for (const card of cards) await callStripe(() => this.stripe.paymentMethods.detach(card.id));
  }

  /** Deletes the Customer at Stripe: its cards go with it, and its subscriptions end there. */
  async deleteCustomer(userId: string): Promise<void> {
    const user = await this.db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, stripeCustomerId: true } });
    const customerId = user?.stripeCustomerId;
    if (!customerId) return;
    try {
      await callStripe(() => this.stripe.customers.del(customerId));
    } catch (err) {
      // Stripe no longer knows it: deleted already.
      if (!(err instanceof AppError && err.status === 404)) throw err;
    }
  }

  async payout(request: PayoutRequest): Promise<PaymentResult> {
    const account = request.destination?.accountId;
    if (!account) throw payoutsNotReady();
    try {
      const transfer = await callStripe(() =>
        this.stripe.transfers.create(
          {
            amount: request.amountCents,
            currency: 'usd',
            destination: account,
            // The withdrawal's key, so reconciliation finds the withdrawal of a Transfer the ledger never settled.
            metadata: { userId: request.userId, purpose: 'withdrawal', idempotencyKey: request.idempotencyKey },
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

  async ensureCustomer(input: { userId: string; email: string; existingCustomerId: string | null; idempotencyKey: string }) {
    if (input.existingCustomerId) return { id: input.existingCustomerId };
    const customer = await callStripe(() =>
      this.stripe.customers.create({ email: input.email, metadata: { userId: input.userId } }, { idempotencyKey: input.idempotencyKey }),
    );
    return { id: customer.id };
  }

  async startSubscription(input: { customerId: string; idempotencyKey: string }): Promise<StartedSubscription> {
    const sub = await callStripe(() =>
      this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          items: [{ price: this.priceId }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments'],
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
    const clientSecret = invoice?.confirmation_secret?.client_secret;
    const paymentIntentId = invoice && clientSecret ? firstPaymentIntentId(invoice, clientSecret) : null;
    if (!clientSecret || !paymentIntentId) throw paymentSetupIncomplete();
    return { subscriptionId: sub.id, paymentIntentId, clientSecret };
  }

  async getPaymentIntent(paymentIntentId: string): Promise<ProviderPaymentIntentState> {
    const intent = await callStripe(() => this.stripe.paymentIntents.retrieve(paymentIntentId));
    // The invoice this PaymentIntent pays, and through it the subscription (PaymentIntents no longer name their invoice).
    const payments = await callStripe(() =>
      this.stripe.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: paymentIntentId },
        expand: ['data.invoice'],
        limit: 1,
      }),
    );
    const invoice = payments.data[0]?.invoice;
    const subscriptionId =
      invoice && typeof invoice === 'object' && !('deleted' in invoice && invoice.deleted)
        ? invoiceSubscriptionId(invoice as Stripe.Invoice)
        : null;
    return {
      id: intent.id,
      status: PAYMENT_INTENT_STATUSES[intent.status] ?? 'requires_payment_method',
      amountCents: intent.amount,
      subscriptionId,
    };
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscriptionState> {
    return subscriptionState(await callStripe(() => this.stripe.subscriptions.retrieve(subscriptionId)));
  }

  async setCancelAtPeriodEnd(
    subscriptionId: string,
    cancelAtPeriodEnd: boolean,
    idempotencyKey: string,
  ): Promise<ProviderSubscriptionState> {
    const sub = await callStripe(() =>
      this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancelAtPeriodEnd }, { idempotencyKey }),
    );
    return subscriptionState(sub);
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    const current = await callStripe(() => this.stripe.subscriptions.retrieve(subscriptionId));
    if (current.status === 'canceled' || current.status === 'incomplete_expired') return;
    await callStripe(() => this.stripe.subscriptions.cancel(subscriptionId));
  }
}

/** The provider PAYMENTS=stripe uses (create.ts builds it once). */
export function createStripePayments(config: Pick<Config, 'stripe'>, db: Database): StripePayments {
  const stripe = requireStripeConfig(config);
  return new StripePayments(stripeClient(stripe), db, stripe.priceId);
}
