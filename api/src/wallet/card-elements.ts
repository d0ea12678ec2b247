/**
 * A card deposit the page confirms with Stripe Elements (PAYMENTS=stripe): the card goes from the
 * page to Stripe, never through us, so the deposit is settled from Stripe's own word.
 *
 * 1. `POST /api/wallet/card-deposit {elements: true}` records a pending `card_elements` intent,
 *    creates its PaymentIntent (once per intent: the intent's key is Stripe's Idempotency-Key),
 *    remembers the PaymentIntent's id and answers 202 with its client secret. The secret is never
 *    stored: a repeat of the request's key reads the PaymentIntent again for it.
 * 2. The page confirms with Stripe.js, then `POST /api/wallet/card-deposit/confirm`, which reads
 *    the PaymentIntent: succeeded credits the deposit (settle.ts: exactly once); declined or never
 *    paid cancels it (its secret can pay no more) and moves nothing.
 * 3. Stripe's `payment_intent.succeeded` webhook settles the same intent (whichever comes first
 *    credits; the other finds it settled), and recovery (intents.ts) reads the PaymentIntents of
 *    intents still pending, cancelling those not paid within an hour.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { notFound } from '../errors.js';
import { completeIdempotencyRecord } from '../http/idempotency.js';
import { cardDeclined, paymentIncomplete, paymentProcessing, type CardPayment, type WalletPayments } from '../payments/provider.js';
import type { CardDepositStarted } from '../../contract/wallet.js';
import { PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { balanceOutcome, settleFailed, settleSucceeded, type WalletOutcome } from './settle.js';
import { confirmElementsHold } from './card-hold.js';
import { In } from 'typeorm';

export interface CardElementsDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

/** How long a PaymentIntent may wait for the page to confirm it before recovery cancels it. */
export const CARD_PAYMENT_TIMEOUT_MS = 60 * 60_000;

/** Step 1's outside work, after the intent is recorded (service.ts holds the request's key). */
export async function startCardElements(deps: CardElementsDeps, intent: PaymentIntent, save: boolean): Promise<WalletOutcome> {
  let payment: CardPayment;
  try {
    payment = await deps.payments.startCardPayment({
      userId: intent.userId,
      amountCents: intent.amountCents,
      idempotencyKey: intent.idempotencyKey,
      intentId: intent.id,
      save,
      hold: intent.kind === 'elements_hold',
    });
  } catch (err) {
    // Nobody has a secret to pay with, whatever Stripe made: the key is freed for a fresh attempt.
    await settleFailed(deps.db, intent);
    throw err;
  }
  const { paymentIntentId, clientSecret } = payment;
  await deps.db.transaction(async (em) => {
    await em.update(PaymentIntentEntity, { id: intent.id, status: 'pending' }, { providerReference: paymentIntentId });
    await completeIdempotencyRecord(em, intent.idempotencyRecordId, { kind: 'started', paymentIntentId } satisfies WalletOutcome);
  });
  return { kind: 'started', paymentIntentId, clientSecret };
}

/** A repeat of step 1's key: the stored answer names the PaymentIntent, whose secret is read again. */
export async function withClientSecret(deps: CardElementsDeps, body: { paymentIntentId: string }): Promise<CardDepositStarted> {
  const payment = await deps.payments.readCardPayment(body.paymentIntentId);
  return { paymentIntentId: payment.paymentIntentId, clientSecret: payment.clientSecret };
}

const unknownPayment = () => notFound('There is no such card payment.');

/** Step 2: the page says it confirmed `paymentIntentId`; only the user's own intent is settled. */
export async function confirmCardElements(
  deps: CardElementsDeps,
  input: { userId: string; paymentIntentId: string },
): Promise<WalletOutcome> {
  const intent = await deps.db.manager.findOneBy(PaymentIntentEntity, {
    userId: input.userId,
    kind: In(['card_elements', 'elements_hold']),
    providerReference: input.paymentIntentId,
  });
  if (!intent) throw unknownPayment();
  if (intent.kind === 'elements_hold') return confirmElementsHold(deps, intent, (payment) => cancelUnpaid(deps, intent, payment));
  if (intent.status === 'succeeded' && intent.resultBalanceCents !== null) return balanceOutcome(intent.resultBalanceCents);
  if (intent.status === 'failed') throw paymentIncomplete(402);

  let payment = await deps.payments.readCardPayment(input.paymentIntentId);
  if (payment.intentId !== intent.id) throw unknownPayment();
  if (payment.status === 'requires_payment_method' || payment.status === 'canceled') {
    const outcome = await cancelUnpaid(deps, intent, payment);
    if (outcome.status !== 'succeeded') throw payment.declined ? cardDeclined() : paymentIncomplete(402);
    payment = outcome;
  }
  if (payment.status === 'processing') throw paymentProcessing();
  if (payment.status !== 'succeeded') throw paymentIncomplete(402);

  await settleSucceeded(deps.db, intent, payment.paymentIntentId);
  // Settled by this request, or just before by the webhook: the intent says which way it went.
  const settled = await deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id });
  if (settled.status !== 'succeeded' || settled.resultBalanceCents === null) throw paymentProcessing();
  return balanceOutcome(settled.resultBalanceCents);
}

/**
 * An unpaid PaymentIntent is cancelled before its intent is settled failed, so its secret can no
 * longer pay; a cancel refused because it was paid meanwhile answers the paid PaymentIntent.
 */
async function cancelUnpaid(deps: CardElementsDeps, intent: PaymentIntent, payment: CardPayment): Promise<CardPayment> {
  let now = payment;
  if (payment.status !== 'canceled') {
    try {
      now = await deps.payments.cancelCardPayment(payment.paymentIntentId);
    } catch (err) {
      now = await deps.payments.readCardPayment(payment.paymentIntentId);
      if (now.status !== 'succeeded' && now.status !== 'canceled') throw err;
    }
  }
  if (now.status === 'canceled') await settleFailed(deps.db, intent);
  return now;
}

/**
 * Step 3, from Stripe's verified `payment_intent.succeeded` (`db` runs in the event's
 * transaction): false when the PaymentIntent is not a pending deposit of ours.
 */
export async function settleCardElementsEvent(db: Database, paymentIntent: { id: string; metadata?: Record<string, string> }) {
  if (paymentIntent.metadata?.purpose !== 'card_deposit' || !paymentIntent.metadata.intentId) return false;
  const intent = await db.manager.findOneBy(PaymentIntentEntity, {
    id: paymentIntent.metadata.intentId,
    kind: 'card_elements',
    providerReference: paymentIntent.id,
  });
  return intent ? settleSucceeded(db, intent, paymentIntent.id) : false;
}

/** Recovery of one pending `card_elements` intent: what it became, or null when another settler won (intents.ts counts it). */
export async function resolveCardElementsIntent(
  deps: CardElementsDeps,
  intent: PaymentIntent,
  now: Date,
): Promise<'succeeded' | 'failed' | 'unresolved' | null> {
  const expired = now.getTime() - intent.createdAt.getTime() >= CARD_PAYMENT_TIMEOUT_MS;
  const reference = intent.providerReference;
  // No PaymentIntent remembered: its secret never reached the page, so nothing can pay it.
  if (!reference) return !expired ? 'unresolved' : (await settleFailed(deps.db, intent)) ? 'failed' : null;
  try {
    let payment = await deps.payments.readCardPayment(reference);
    const unpaid = payment.status !== 'succeeded' && payment.status !== 'processing';
    if (unpaid && (expired || payment.status === 'canceled')) payment = await cancelUnpaid(deps, intent, payment);
    if (payment.status === 'succeeded') return (await settleSucceeded(deps.db, intent, reference)) ? 'succeeded' : null;
    return payment.status === 'canceled' ? 'failed' : 'unresolved';
  } catch (err) {
    deps.log?.warn({ err, intent: intent.id }, 'card payment not readable; asked again later');
    return 'unresolved';
  }
}
