/**
 * Payment intents: a deposit or withdrawal is recorded before the payment provider is
 * called, the provider is called outside any transaction, and a second transaction settles it.
 * So a slow or failing provider never holds the database (on SQLite every write would wait behind
 * it), and a crash in between leaves a pending intent that `resolvePendingPayments` settles by
 * asking the provider again with the same idempotency key (same key, same answer).
 *
 * Settling is a conditional update `pending → succeeded | failed`: of two settlers (the request
 * and a recovery run, or two processes) only one moves money.
 *
 * - Deposit: pending intent (nothing moves) → charge → succeeded + `system:payments → user`
 *   (kind deposit), or failed and nothing moves. A card deposit is the same with the card the
 *   page sent (or the saved one); the card is never stored, so recovery only asks what became
 *   of the intent's key. A card in Stripe Elements (`card_elements`) is confirmed by the page:
 *   card-elements.ts settles it from the PaymentIntent, and recovery reads that instead of charging.
 * - Withdrawal: `user → system:payouts-pending` (kind withdrawal: the money leaves the balance at
 *   once and cannot be spent twice) + pending intent → payout (a Transfer to the user's connected
 *   account, payouts/) → succeeded +
 *   `system:payouts-pending → system:payments`, or failed + the held money back to the user
 *   (kind refund).
 */
import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import type { AppError } from '../errors.js';
import { SYSTEM_PAYOUTS_PENDING, transfer, userAccount } from '../money/ledger.js';
import { isDefiniteFailure, type CardSource, type PaymentResult, type WalletPayments } from '../payments/provider.js';
import { HOLD_KINDS, PaymentIntentEntity, type PaymentIntent, type PaymentIntentKind } from './entity.js';

const CARD_KINDS = { form: 'card_deposit', elements: 'card_elements', hold: 'card_hold', 'elements-hold': 'elements_hold' } as const;
import {
  accountClosed,
  accountClosedError,
  balanceOutcome,
  paymentPending,
  settleFailed,
  settleSucceeded,
  type WalletOutcome,
} from './settle.js';
import { refundUnclaimed } from './unclaimed.js';
import { resolveCardHold, staleHolds } from './card-hold-recovery.js';
import { resolveCardElementsIntent } from './card-elements.js';
import { payoutDestinationOf } from '../payouts/service.js';

export interface IntentDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

/**
 * Records a pending deposit (from the saved payment method, or a card: the sandbox's form, Stripe
 * Elements, or an authorisation for a gift), inside the request's first transaction. Nothing moves
 * yet. A closed account is refused here, its row locked, so a closing waits or sees this intent.
 */
export async function beginDeposit(
  em: EntityManager,
  input: { userId: string; amountCents: number; recordId: string | null; card?: 'form' | 'elements' | 'hold' | 'elements-hold' },
): Promise<PaymentIntent> {
  if (await accountClosed(em, input.userId, true)) throw accountClosedError();
  const kind = input.card ? CARD_KINDS[input.card] : 'deposit';
  return insertIntent(em, { ...input, kind, resultBalanceCents: null });
}

/**
 * Holds a withdrawal's amount (`user → system:payouts-pending`, refused with `insufficient` when
 * the balance does not cover it) and records the pending withdrawal, in the request's first
 * transaction.
 */
export async function beginWithdrawal(
  em: EntityManager,
  input: { userId: string; amountCents: number; recordId: string | null; insufficient: () => AppError },
): Promise<PaymentIntent> {
  const held = await transfer(em, {
    from: userAccount(input.userId),
    to: SYSTEM_PAYOUTS_PENDING,
    amountCents: input.amountCents,
    kind: 'withdrawal',
    actorUserId: input.userId,
    insufficient: input.insufficient,
  });
  // The intent takes its hold's id, so the money history finds the transfer's state from the row.
  return insertIntent(em, { ...input, id: held.transferId, kind: 'withdrawal', resultBalanceCents: held.fromBalanceCents });
}

async function insertIntent(
  em: EntityManager,
  input: {
    id?: string;
    userId: string;
    amountCents: number;
    recordId: string | null;
    kind: PaymentIntentKind;
    resultBalanceCents: number | null;
  },
): Promise<PaymentIntent> {
  const id = input.id ?? crypto.randomUUID();
  const now = new Date();
  const intent: PaymentIntent = {
    id,
    userId: input.userId,
    kind: input.kind,
    amountCents: input.amountCents,
    idempotencyKey: `giftlink:${input.kind}:${id}`,
    idempotencyRecordId: input.recordId,
    status: 'pending',
    providerReference: null,
    resultBalanceCents: input.resultBalanceCents,
    createdAt: now,
    updatedAt: now,
  };
  await em.insert(PaymentIntentEntity, { ...intent });
  return intent;
}

/** Calls the provider for an intent, outside any transaction; `card` only from the request that began it. */
async function callProvider(deps: IntentDeps, intent: PaymentIntent, card: CardSource | null = null): Promise<PaymentResult> {
  const { payments } = deps;
  const request = { userId: intent.userId, amountCents: intent.amountCents, idempotencyKey: intent.idempotencyKey };
  if (intent.kind === 'card_deposit') return payments.chargeCard({ ...request, source: card });
  if (intent.kind === 'deposit') return payments.charge(request);
  return payments.payout({ ...request, destination: await payoutDestinationOf(deps.db.manager, intent.userId) });
}

/**
 * Steps 2 and 3 of a request: calls the provider outside any transaction, then settles. Answers
 * the new balance; throws the provider's decline (nothing moved), or `paymentPending` when the
 * outcome is unknown (the intent stays pending for `resolvePendingPayments`).
 */
export async function completeIntent(deps: IntentDeps, intent: PaymentIntent, card: CardSource | null = null): Promise<WalletOutcome> {
  let result: PaymentResult;
  try {
    result = await callProvider(deps, intent, card);
  } catch (err) {
    if (!isDefiniteFailure(err)) {
      deps.log?.warn({ err, intent: intent.id }, 'payment provider outcome unknown; left pending');
      throw paymentPending();
    }
    await settleFailed(deps.db, intent);
    throw err;
  }
  await settleSucceeded(deps.db, intent, result.reference);
  // Settled by this request, or just before by a recovery run: the intent says which way it went.
  const settled = await deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id });
  if (settled.status === 'unclaimed' || settled.status === 'refunded') {
    await refundUnclaimed(deps, intent.id);
    throw accountClosedError();
  }
  if (settled.status !== 'succeeded' || settled.resultBalanceCents === null) throw paymentPending();
  return balanceOutcome(settled.resultBalanceCents);
}

/** How long an intent stays pending before recovery asks the provider again (the request may still be under way). */
export const PENDING_GRACE_MS = 60_000;

/** What one recovery run settled (an intent another settler won counts nowhere). */
export interface ResolveResult {
  succeeded: number;
  failed: number;
  /** Still unknown: asked again at the next run. */
  unresolved: number;
}

/**
 * Settles intents pending for longer than a minute (a crash, or a provider that did not answer):
 * asks the provider again with the same idempotency key and settles the answer, exactly once.
 * Runs at start-up and as a scheduled job.
 */
export async function resolvePendingPayments(deps: IntentDeps, now: Date = new Date(), limit = 100): Promise<ResolveResult> {
  const em = deps.db.manager;
  const stale = await em
    .createQueryBuilder(PaymentIntentEntity, 'i')
    .where('i.status = :pending', { pending: 'pending' })
    .andWhere('i.created_at <= :before', { before: dateParam(em, new Date(now.getTime() - PENDING_GRACE_MS)) })
    .orderBy('i.created_at', 'ASC')
    .limit(limit)
    .getMany();
  const outcome: ResolveResult = { succeeded: 0, failed: 0, unresolved: 0 };
  for (const intent of stale) {
    if (HOLD_KINDS.includes(intent.kind)) continue;
    if (intent.kind === 'card_elements') {
      const became = await resolveCardElementsIntent(deps, intent, now);
      if (became) outcome[became] += 1;
      continue;
    }
    let result: PaymentResult;
    try {
      result = await callProvider(deps, intent);
    } catch (err) {
      if (isDefiniteFailure(err)) {
        if (await settleFailed(deps.db, intent)) outcome.failed += 1;
      } else {
        deps.log?.warn({ err, intent: intent.id }, 'payment provider outcome still unknown');
        outcome.unresolved += 1;
      }
      continue;
    }
    if (await settleSucceeded(deps.db, intent, result.reference)) outcome.succeeded += 1;
  }
  // Card authorisations past their window, landed gifts not yet captured, closed accounts' refunds.
  for (const intent of await staleHolds(em, now, limit)) {
    const became = await resolveCardHold(deps, intent, now);
    if (became) outcome[became] += 1;
  }
  return outcome;
}

/** Every kind, so a new one is counted too. */
const INTENT_KINDS = Object.keys({
  deposit: true,
  card_deposit: true,
  card_elements: true,
  card_hold: true,
  elements_hold: true,
  withdrawal: true,
} satisfies Record<PaymentIntentKind, true>) as PaymentIntentKind[];

/** Intents pending now, each kind's (0 too): read at each scrape of the metrics (the status index makes it a short range). */
export async function pendingIntentCounts(db: Database): Promise<{ kind: PaymentIntentKind; count: number }[]> {
  const rows: { kind: PaymentIntentKind; count: string | number }[] = await db.manager
    .createQueryBuilder(PaymentIntentEntity, 'i')
    .select('i.kind', 'kind')
    .addSelect('COUNT(*)', 'count')
    .where('i.status = :pending', { pending: 'pending' })
    .groupBy('i.kind')
    .getRawMany();
  return INTENT_KINDS.map((kind) => ({ kind, count: Number(rows.find((r) => r.kind === kind)?.count ?? 0) }));
}
