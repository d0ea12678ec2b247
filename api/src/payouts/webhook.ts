/**
 * Stripe's Connect webhook: `POST /payouts/webhook` (and `/api/payouts/webhook`), an endpoint of
 * its own for events on connected accounts (`account.updated`, `payout.failed`, `payout.paid`),
 * signed with STRIPE_CONNECT_WEBHOOK_SECRET. Mounted in app.ts before the body parser (the
 * signature covers the raw bytes); a bad signature is a 400 that changes nothing. Each event takes effect once: its id goes into `stripe_events` in the same
 * transaction as its effect, so a replay fails on the key and is answered 'already processed'.
 */
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import type { Deps } from '../deps.js';
import { isUniqueViolation } from '../errors.js';
import type { Middleware } from '../http/context.js';
import { connectAccountState, connectPayout } from '../payments/stripe-connect.js';
import { requireStripeConfig, stripeClient } from '../payments/stripe-client.js';
import { StripeEventEntity } from '../subscriptions/entity.js';
import { signedStripeEndpoint, type WebhookOutcome } from '../subscriptions/webhook.js';
import { applyAccountState, applyPayoutFailed, applyPayoutPaid } from './service.js';

export const CONNECT_WEBHOOK_PATHS = new Set(['/payouts/webhook', '/api/payouts/webhook']);

/** Applies a Connect event inside its transaction: false when it changes nothing (not ours, older, or of no interest). */
async function applyConnectEvent(em: EntityManager, event: Stripe.Event): Promise<boolean> {
  const at = new Date(event.created * 1000);
  // Stripe's times are whole seconds: the event stands for the end of its second.
  const asOf = new Date(at.getTime() + 999);
  switch (event.type) {
    case 'account.updated':
      return applyAccountState(em, connectAccountState(event.data.object), asOf);
    // A payout's event names its connected account; one without is the platform's own payout.
    case 'payout.failed':
      return event.account ? applyPayoutFailed(em, connectPayout(event.account, event.data.object), at, asOf) : false;
    case 'payout.paid':
      return event.account ? applyPayoutPaid(em, connectPayout(event.account, event.data.object), asOf) : false;
    default:
      return false;
  }
}

/** Records and applies a verified Connect event exactly once. */
export async function handleConnectEvent(deps: Pick<Deps, 'db' | 'clock'>, event: Stripe.Event): Promise<WebhookOutcome> {
  try {
    return await deps.db.transaction(async (em) => {
      await em.insert(StripeEventEntity, { id: event.id, type: event.type.slice(0, 100), receivedAt: deps.clock() });
      return (await applyConnectEvent(em, event)) ? 'processed' : 'ignored';
    });
  } catch (err) {
    if (isUniqueViolation(err)) return 'already processed';
    throw err;
  }
}

/** The Connect endpoint as a middleware; only with PAYMENTS=stripe and its secret set (else the path is unknown). */
export function connectWebhook(deps: Deps): Middleware {
  const stripeConfig = deps.config.payments === 'stripe' ? requireStripeConfig(deps.config) : null;
  if (!stripeConfig?.connectWebhookSecret) return (_ctx, next) => next();
  return signedStripeEndpoint(deps, {
    paths: CONNECT_WEBHOOK_PATHS,
    secret: stripeConfig.connectWebhookSecret,
    stripe: stripeClient(stripeConfig),
    limitName: 'stripe.connect-webhook',
    label: 'stripe connect webhook',
    handle: (event) => handleConnectEvent(deps, event),
  });
}
