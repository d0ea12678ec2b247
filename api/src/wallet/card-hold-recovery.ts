/**
 * Recovery of card authorisations and of closed accounts' payments (run by `payments.resolve`):
 * an authorisation whose gift did not land within its window is let go, a landed gift whose
 * capture answer was lost is captured again with the same key, an authorisation whose answer was
 * lost is asked about and let go, and money booked to `system:unclaimed` is refunded.
 */
import { In, LessThanOrEqual, type EntityManager } from 'typeorm';
import { isDefiniteFailure } from '../payments/provider.js';
import { HOLD_KINDS, PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { CARD_PAYMENT_TIMEOUT_MS } from './card-elements.js';
import { captureHold, releaseHold, type HoldDeps } from './card-hold.js';
import { claim, settleFailed } from './settle.js';
import { refundUnclaimed } from './unclaimed.js';

/** How long the page has to send the gift after the card was authorised. */
export const HOLD_WINDOW_MS = 15 * 60_000;
/** How long a step may still be under way in its request before recovery takes it over. */
const GRACE_MS = 60_000;

/** Intents recovery looks at: every unfinished authorisation, every unclaimed payment, untouched for a minute. */
export function staleHolds(em: EntityManager, now: Date, limit: number): Promise<PaymentIntent[]> {
  const before = LessThanOrEqual(new Date(now.getTime() - GRACE_MS));
  return em.find(PaymentIntentEntity, {
    where: [
      { kind: In(HOLD_KINDS), status: In(['pending', 'authorised', 'releasing', 'landed']), updatedAt: before },
      { status: 'unclaimed', updatedAt: before },
    ],
    order: { createdAt: 'ASC' },
    take: limit,
  });
}

/** What one intent became (counted by resolvePendingPayments), or null when nothing changed. */
export async function resolveCardHold(
  deps: HoldDeps,
  intent: PaymentIntent,
  now: Date,
): Promise<'succeeded' | 'failed' | 'unresolved' | null> {
  switch (intent.status) {
    case 'unclaimed':
      return (await refundUnclaimed(deps, intent.id)) ? 'failed' : 'unresolved';
    case 'landed':
      await captureHold(deps, intent.id);
      return (await statusOf(deps, intent)) === 'succeeded' ? 'succeeded' : 'unresolved';
    case 'authorised':
      if (now.getTime() - intent.updatedAt.getTime() < HOLD_WINDOW_MS) return null;
      return (await releaseHold(deps, { intentId: intent.id })) ? 'failed' : 'unresolved';
    case 'releasing':
      return (await releaseHold(deps, { intentId: intent.id })) ? 'failed' : 'unresolved';
    case 'pending':
      return intent.kind === 'elements_hold' ? readElementsHold(deps, intent, now) : askAgain(deps, intent);
    default:
      return null;
  }
}

const statusOf = async (deps: HoldDeps, intent: PaymentIntent) =>
  (await deps.db.manager.findOneBy(PaymentIntentEntity, { id: intent.id }))?.status;

/** An authorisation whose answer never came: asked with the same key (never with a card), then let go. */
async function askAgain(deps: HoldDeps, intent: PaymentIntent): Promise<'failed' | 'unresolved' | null> {
  try {
    const hold = await deps.payments.authoriseCard({
      userId: intent.userId,
      amountCents: intent.amountCents,
      idempotencyKey: intent.idempotencyKey,
      source: null,
    });
    if (!(await deps.db.transaction((em) => claim(em, intent, 'authorised', hold.reference)))) return null;
    return (await releaseHold(deps, { intentId: intent.id })) ? 'failed' : 'unresolved';
  } catch (err) {
    if (isDefiniteFailure(err)) return (await settleFailed(deps.db, intent)) ? 'failed' : null;
    deps.log?.warn({ err, intent: intent.id }, 'card authorisation still unknown');
    return 'unresolved';
  }
}

/**
 * An Elements authorisation whose page did not come back: authorised at Stripe, it waits out its
 * window as any authorisation; never paid within the hour, its PaymentIntent is cancelled.
 */
async function readElementsHold(deps: HoldDeps, intent: PaymentIntent, now: Date): Promise<'failed' | 'unresolved' | null> {
  const expired = now.getTime() - intent.createdAt.getTime() >= CARD_PAYMENT_TIMEOUT_MS;
  try {
    if (!intent.providerReference) return expired && (await settleFailed(deps.db, intent)) ? 'failed' : 'unresolved';
    const payment = await deps.payments.readCardPayment(intent.providerReference);
    if (payment.capturable) return (await deps.db.transaction((em) => claim(em, intent, 'authorised', null))) ? null : null;
    if (payment.status !== 'canceled' && (!expired || payment.status === 'processing')) return 'unresolved';
    if (payment.status !== 'canceled') await deps.payments.cancelCardHold(intent.providerReference);
    return (await settleFailed(deps.db, intent)) ? 'failed' : null;
  } catch (err) {
    deps.log?.warn({ err, intent: intent.id }, 'card authorisation not readable; asked again later');
    return 'unresolved';
  }
}
