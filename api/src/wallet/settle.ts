/**
 * Settling a wallet payment intent (intents.ts, card-elements.ts): a conditional update
 * `pending → succeeded | failed` in the transaction that moves the money, so of two settlers (the
 * request and a recovery run, the page's confirm and Stripe's webhook, or two processes) only one
 * moves it.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { completeIdempotencyRecord, forgetIdempotencyRecord } from '../money/idempotency.js';
import { SYSTEM_PAYMENTS, SYSTEM_PAYOUTS_PENDING, transfer, userAccount } from '../money/ledger.js';
import { repayOwed } from '../money/disputes.js';
import { centsToDollars } from '../../contract/money.js';
import { PaymentIntentEntity, type PaymentIntent, type PaymentIntentStatus } from './entity.js';

export const answerOf = (balanceCents: number) => ({ status: 200, body: { new_balance: centsToDollars(balanceCents) } });

/** Flips a pending intent to `status`; true only for the one caller whose update changed it. */
async function claim(em: EntityManager, intent: PaymentIntent, status: PaymentIntentStatus, reference: string | null): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PaymentIntentEntity)
    // A failure keeps the reference it had (an Elements deposit's PaymentIntent, still asked about).
    .set({ status, ...(reference === null ? {} : { providerReference: reference }), updatedAt: new Date() })
    .where('id = :id AND status = :pending', { id: intent.id, pending: 'pending' })
    .execute();
  return result.affected === 1;
}

/** The provider took or sent the money: record it in the ledger and answer the request. */
export async function settleSucceeded(db: Database, intent: PaymentIntent, reference: string): Promise<boolean> {
  return db.transaction(async (em) => {
    if (!(await claim(em, intent, 'succeeded', reference))) return false;
    let balanceCents: number;
    if (intent.kind !== 'withdrawal') {
      const moved = await transfer(em, {
        from: SYSTEM_PAYMENTS,
        to: userAccount(intent.userId),
        amountCents: intent.amountCents,
        kind: 'deposit',
        actorUserId: intent.userId,
        reference,
      });
      // A payer who owes for a disputed payment pays it back from this first.
      balanceCents = await repayOwed(em, intent.userId, moved.toBalanceCents);
      await em.update(PaymentIntentEntity, { id: intent.id }, { resultBalanceCents: balanceCents });
    } else {
      await transfer(em, {
        from: SYSTEM_PAYOUTS_PENDING,
        to: SYSTEM_PAYMENTS,
        amountCents: intent.amountCents,
        kind: 'withdrawal',
        actorUserId: intent.userId,
        reference,
      });
      balanceCents = intent.resultBalanceCents ?? 0;
    }
    await completeIdempotencyRecord(em, intent.idempotencyRecordId, answerOf(balanceCents));
    return true;
  });
}

/** The provider said no: nothing moved (a withdrawal's held money goes back) and the key is freed. */
export async function settleFailed(db: Database, intent: PaymentIntent): Promise<boolean> {
  return db.transaction(async (em) => {
    if (!(await claim(em, intent, 'failed', null))) return false;
    if (intent.kind === 'withdrawal')
      await transfer(em, {
        from: SYSTEM_PAYOUTS_PENDING,
        to: userAccount(intent.userId),
        amountCents: intent.amountCents,
        kind: 'refund',
        actorUserId: intent.userId,
      });
    await forgetIdempotencyRecord(em, intent.idempotencyRecordId);
    return true;
  });
}
