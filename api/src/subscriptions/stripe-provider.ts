/**
 * The Stripe side of the subscription (issue 12), on the official `stripe` SDK at the API version it
 * pins (`Stripe.API_VERSION`). A Customer per user (metadata userId), a Subscription on the weekly
 * Price (STRIPE_PRICE_ID) created with payment_behavior 'default_incomplete', so its first invoice
 * waits for the page to confirm its PaymentIntent with Stripe Elements. In this API version the
 * invoice carries the secret as `confirmation_secret.client_secret` and its PaymentIntent under
 * `payments` (the old `latest_invoice.payment_intent` is gone), and a subscription's period end is
 * on its items. Every call that creates or changes something sends an idempotency key.
 *
 * Called only outside database transactions (see provider.ts); Stripe's errors become AppErrors.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { ConfigError, type Config, type StripeConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { ProviderPaymentIntentState, ProviderSubscriptionState, StartedSubscription, SubscriptionProvider } from './provider.js';

// The SDK is loaded on first use: only PAYMENTS=stripe needs it, and it is a large share of the server's start-up.
let sdk: typeof Stripe | undefined;
const loadSdk = (): typeof Stripe => (sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe);

/** The SDK client, pointed at STRIPE_API_BASE when set (tests). */
export function stripeClient(config: StripeConfig): Stripe {
  const StripeSdk = loadSdk();
  return new StripeSdk(config.secretKey, {
    ...(config.api ?? {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Giftlink' },
  });
}

/** The Stripe configuration, or a start-up error naming what is missing. */
export function requireStripeConfig(config: Pick<Config, 'stripe'>): StripeConfig {
  if (!config.stripe) throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENTS=stripe');
  return config.stripe;
}

export const paymentSetupIncomplete = () => new AppError(502, 'payment_setup_incomplete', 'Payment setup is incomplete. Please try again.');

/** Stripe's errors as ours: a card's decline keeps Stripe's text; anything else is the provider failing. */
export function stripeError(err: unknown): unknown {
  // No client yet means the SDK made no error.
  if (!sdk || !(err instanceof sdk.errors.StripeError)) return err;
  if (err instanceof sdk.errors.StripeCardError) return new AppError(402, 'payment_declined', err.message);
  if (err.type === 'StripeIdempotencyError')
    return new AppError(409, 'idempotency_conflict', 'This request was already made with other details.');
  if (err.statusCode === 404) return new AppError(404, 'not_found', 'The payment provider does not know this payment.');
  return new AppError(502, 'payment_provider_error', 'The payment provider did not answer. Please try again.');
}

/** Runs one SDK call, mapping its errors (see stripeError). */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeError(err);
  }
}

const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  ref == null ? null : typeof ref === 'string' ? ref : ref.id;

const SUBSCRIPTION_STATUSES = new Set<string>(['incomplete', 'active', 'past_due', 'canceled', 'incomplete_expired', 'unpaid', 'trialing']);

/**
 * A Stripe subscription as the service settles it. The period end is the latest of its items'
 * (this API version), else the top-level field webhooks of older endpoint versions still carry.
 * 'paused' (no invoices are collected) reads as 'unpaid': no benefits until it is resumed.
 */
export function subscriptionState(sub: Stripe.Subscription): ProviderSubscriptionState {
  const ends = sub.items.data.map((item) => item.current_period_end).filter((n): n is number => typeof n === 'number');
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const end = ends.length ? Math.max(...ends) : (legacyEnd ?? sub.created);
  const status = SUBSCRIPTION_STATUSES.has(sub.status) ? (sub.status as ProviderSubscriptionState['status']) : 'unpaid';
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status,
    currentPeriodEnd: new Date(end * 1000),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

/** The subscription an invoice bills, in this API version (`parent.subscription_details`) or older ones (`subscription`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const current = idOf(invoice.parent?.subscription_details?.subscription);
  return current ?? idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** The end of the period an invoice paid for: its lines' latest period end. */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date {
  const ends = invoice.lines.data.map((line) => line.period.end);
  return new Date((ends.length ? Math.max(...ends) : invoice.period_end) * 1000);
}

/** The first invoice's PaymentIntent id: from its payments, else from the client secret (`pi_…_secret_…`). */
function firstPaymentIntentId(invoice: Stripe.Invoice, clientSecret: string): string | null {
  for (const p of invoice.payments?.data ?? []) {
    const id = idOf(p.payment.payment_intent);
    if (p.payment.type === 'payment_intent' && id) return id;
  }
  const match = /^(pi_[A-Za-z0-9]+)_secret_/.exec(clientSecret);
  return match ? match[1] : null;
}

const PAYMENT_INTENT_STATUSES: Record<string, ProviderPaymentIntentState['status']> = {
  succeeded: 'succeeded',
  processing: 'processing',
  requires_capture: 'processing',
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_confirmation',
  requires_action: 'requires_action',
  canceled: 'canceled',
};

export class StripeSubscriptionProvider implements SubscriptionProvider {
  readonly name = 'stripe';

  constructor(
    private readonly stripe: Stripe,
    private readonly priceId: string,
  ) {}

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

/** The provider PAYMENTS=stripe uses (server.ts builds it once). */
export function createStripeSubscriptionProvider(config: Pick<Config, 'stripe'>): StripeSubscriptionProvider {
  const stripe = requireStripeConfig(config);
  return new StripeSubscriptionProvider(stripeClient(stripe), stripe.priceId);
}
