/**
 * Stripe's webhook: `POST /subscriptions/webhook` (and `/api/subscriptions/webhook`).
 *
 * Mounted in app.ts before the session lookup and the JSON body parser: the signature covers the
 * exact bytes Stripe sent, so the body is read raw here and checked with STRIPE_WEBHOOK_SECRET by
 * the SDK's `constructEvent`; a bad or missing signature is a 400 and changes nothing. The caller
 * is Stripe, never a browser: no cookie, no session, no same-origin check; its own per-address
 * limit instead of the default one.
 *
 * Each event takes effect exactly once: its id is inserted into `stripe_events` in the SAME
 * transaction that applies it (the settle functions of settle.ts, run inside it), so a replay, or
 * the same event delivered to two API processes at once, fails on the primary key, rolls back
 * and is answered 200 'already processed'. Which effect an event has is settle.ts's business; it
 * never resurrects a canceled subscription, whatever order events arrive in. A card deposit's
 * `payment_intent.succeeded` credits it (wallet/card-elements.ts, handed in by app.ts), once
 * with the page's confirm. A dispute of a card payment (`charge.dispute.created` / `.closed`) takes
 * it back or gives it back (commands/dispute.ts, handed in by app.ts).
 */
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import type { Deps } from '../deps.js';
import { AppError, badRequest, isUniqueViolation, tooLarge } from '../errors.js';
import type { Middleware } from '../http/context.js';
import { perAddress } from '../http/rate-limit.js';
import {
  settleInvoicePaid,
  settleInvoicePaymentFailed,
  settleSubscriptionDeleted,
  settleSubscriptionUpdated,
  type SettleDeps,
} from './settle.js';
import { invoicePeriodEnd, invoiceSubscriptionId, subscriptionState } from '../payments/stripe-subscriptions.js';
import { requireStripeConfig, stripeClient } from '../payments/stripe-client.js';
import { StripeEventEntity } from './entity.js';
import type { Publisher, RealtimeEvent } from '../realtime/publisher.js';

export const WEBHOOK_PATHS = new Set(['/subscriptions/webhook', '/api/subscriptions/webhook']);

/** What the page's Stripe Elements needs from the Content-Security-Policy (PAYMENTS=stripe; Stripe's security guide). */
export const STRIPE_CSP = {
  scriptSrc: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  connectSrc: ['https://api.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
};

/** Stripe's events are a few kilobytes; this is far above any of them. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export type WebhookOutcome = 'processed' | 'already processed' | 'ignored';

/** The request's body exactly as sent (the signature covers these bytes). */
export async function rawBody(req: AsyncIterable<Buffer | string>, declaredLength: number | undefined): Promise<Buffer> {
  if (declaredLength !== undefined && declaredLength > MAX_WEBHOOK_BYTES) throw tooLarge('The request body is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_WEBHOOK_BYTES) throw tooLarge('The request body is too large.');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * The settle functions open their own transaction through `deps.db.transaction`; this `db` runs
 * that work in `em` instead, so the event's id and its effect commit (or roll back) together.
 */
function settleWithin(em: EntityManager, deps: Pick<Deps, 'db' | 'clock'>): SettleDeps {
  const db = Object.create(deps.db) as Database;
  db.transaction = <T>(work: (m: EntityManager) => Promise<T>) => work(em);
  return { db, clock: deps.clock };
}

/** What other capabilities settle from Stripe's events (app.ts hands them in; `db` runs in the event's transaction). */
export interface WebhookSettlers {
  /** A card deposit's payment (wallet/card-elements.ts): false when the PaymentIntent is none of theirs. */
  paymentIntentSucceeded?: (db: Database, paymentIntent: Stripe.PaymentIntent) => Promise<boolean>;
  /** A dispute of a card payment opened or closed (commands/dispute.ts): whether it applied, and what to publish once it commits. */
  dispute?: (db: Database, dispute: StripeDisputeEvent) => Promise<{ applied: boolean; events: readonly RealtimeEvent[] }>;
}

/** A dispute as the settler takes it. */
export interface StripeDisputeEvent {
  disputeId: string;
  /** The PaymentIntent (a card deposit's reference), else the charge. */
  reference: string;
  amountCents: number;
  outcome: 'created' | 'won' | 'lost';
}

/** Stripe's dispute object as the settler takes it; null when it names no payment. */
function disputeOf(dispute: Stripe.Dispute, closed: boolean): StripeDisputeEvent | null {
  const idOf = (ref: string | { id: string } | null) => (typeof ref === 'string' ? ref : (ref?.id ?? null));
  const reference = idOf(dispute.payment_intent) ?? idOf(dispute.charge);
  if (!reference) return null;
  const outcome = !closed ? 'created' : dispute.status === 'won' ? 'won' : 'lost';
  return { disputeId: dispute.id, reference, amountCents: dispute.amount, outcome };
}

/** What applying an event did: whether it acted, and the events to publish once it has committed. */
type Applied = boolean | { applied: boolean; events: readonly RealtimeEvent[] };

/** Applies one verified event inside `em`'s transaction; false when its type is not one we act on. */
async function apply(deps: SettleDeps, event: Stripe.Event, settlers: WebhookSettlers): Promise<Applied> {
  switch (event.type) {
    case 'invoice.paid': {
      const providerSubscriptionId = invoiceSubscriptionId(event.data.object);
      if (!providerSubscriptionId) return false;
      await settleInvoicePaid(deps, { providerSubscriptionId, periodEnd: invoicePeriodEnd(event.data.object) });
      return true;
    }
    case 'invoice.payment_failed': {
      const providerSubscriptionId = invoiceSubscriptionId(event.data.object);
      if (!providerSubscriptionId) return false;
      await settleInvoicePaymentFailed(deps, { providerSubscriptionId });
      return true;
    }
    case 'customer.subscription.updated':
      await settleSubscriptionUpdated(deps, subscriptionState(event.data.object));
      return true;
    case 'payment_intent.succeeded':
      return settlers.paymentIntentSucceeded ? settlers.paymentIntentSucceeded(deps.db, event.data.object) : false;
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = disputeOf(event.data.object, event.type === 'charge.dispute.closed');
      return dispute && settlers.dispute ? settlers.dispute(deps.db, dispute) : false;
    }
    case 'customer.subscription.deleted':
      await settleSubscriptionDeleted(deps, { providerSubscriptionId: event.data.object.id });
      return true;
    default:
      return false;
  }
}

/** Records and applies a verified event exactly once (see the file's comment); what it changed in threads is published after the commit. */
export async function handleStripeEvent(
  deps: Pick<Deps, 'db' | 'clock'> & { realtime?: Publisher },
  event: Stripe.Event,
  settlers: WebhookSettlers = {},
): Promise<WebhookOutcome> {
  try {
    const { outcome, events } = await deps.db.transaction(async (em) => {
      await em.insert(StripeEventEntity, { id: event.id, type: event.type.slice(0, 100), receivedAt: deps.clock() });
      const applied = await apply(settleWithin(em, deps), event, settlers);
      const acted = typeof applied === 'boolean' ? applied : applied.applied;
      return { outcome: acted ? ('processed' as const) : ('ignored' as const), events: typeof applied === 'boolean' ? [] : applied.events };
    });
    if (events.length) deps.realtime?.publish(events);
    return outcome;
  } catch (err) {
    if (isUniqueViolation(err)) return 'already processed';
    throw err;
  }
}

/** What a Stripe endpoint is: its paths, its signing secret, its own per-address limit, and what a verified event does. */
interface SignedEndpoint {
  paths: Set<string>;
  secret: string;
  stripe: Stripe;
  limitName: string;
  label: string;
  handle: (event: Stripe.Event) => Promise<WebhookOutcome>;
}

/**
 * A Stripe endpoint as a middleware, ahead of the body parser: POST only, the raw body checked
 * against the signature (a bad or missing one is a 400 that changes nothing), then `handle`.
 */
export function signedStripeEndpoint(deps: Pick<Deps, 'config' | 'limits'>, endpoint: SignedEndpoint): Middleware {
  const limit = perAddress(deps.limits, endpoint.limitName, deps.config.apiRateLimit, deps.config.apiRateWindowSeconds);
  return async (ctx, next) => {
    if (!endpoint.paths.has(ctx.path)) return next();
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      throw new AppError(405, 'method_not_allowed', 'This method is not allowed here.');
    }
    await limit(ctx, async () => undefined);
    const signature = ctx.get('stripe-signature');
    const declared = ctx.get('content-length');
    const body = await rawBody(ctx.req, declared ? Number(declared) : undefined);
    if (!signature) throw badRequest('Missing Stripe-Signature header.', 'bad_signature');
    let event: Stripe.Event;
    try {
      event = endpoint.stripe.webhooks.constructEvent(body, signature, endpoint.secret);
    } catch {
      throw badRequest('The webhook signature is not valid.', 'bad_signature');
    }
    const outcome = await endpoint.handle(event);
    ctx.state.log?.info({ eventId: event.id, type: event.type, outcome }, endpoint.label);
    ctx.body = { received: true, outcome };
  };
}

/**
 * The webhook endpoint as a middleware for app.ts, ahead of the body parser. Other paths pass
 * through. Only with PAYMENTS=stripe (else the path is unknown, as any other).
 */
export function stripeWebhook(deps: Deps, settlers: WebhookSettlers = {}): Middleware {
  if (deps.config.payments !== 'stripe') return (_ctx, next) => next();
  const stripeConfig = requireStripeConfig(deps.config);
  return signedStripeEndpoint(deps, {
    paths: WEBHOOK_PATHS,
    secret: stripeConfig.webhookSecret,
    stripe: stripeClient(stripeConfig),
    limitName: 'stripe.webhook',
    label: 'stripe webhook',
    handle: (event) => handleStripeEvent(deps, event, settlers),
  });
}
