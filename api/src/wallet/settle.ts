/**
 * Settling a wallet payment intent (intents.ts, card-elements.ts): a conditional update
 * `pending → succeeded | failed` in the transaction that moves the money, so of two settlers (the
 * request and a recovery run, the page's confirm and Stripe's webhook, or two processes) only one
 * moves it.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { completeIdempotencyRecord, forgetIdempotencyRecord } from '../http/idempotency.js';
import { SYSTEM_PAYMENTS, SYSTEM_PAYOUTS_PENDING, SYSTEM_UNCLAIMED, transfer, userAccount } from '../money/ledger.js';
import { rowLockNoKey } from '../db/row-lock.js';
import { UserEntity } from '../users/entity.js';
import { repayOwed } from '../money/disputes.js';
import { ACCOUNT_CLOSED_NO_DEPOSIT } from '../../contract/texts.js';
import { AppError } from '../errors.js';
import { PaymentIntentEntity, type PaymentIntent, type PaymentIntentStatus } from './entity.js';

/**
 * The provider's answer is unknown (it did not answer, or answered something other than a
 * decline): the intent stays pending and `resolvePendingPayments` asks again later.
 */
export const paymentPending = () =>
  new AppError(502, 'payment_pending', 'The payment provider has not confirmed this yet. Your balance will update as soon as it does.');

export const accountClosedError = () => new AppError(409, 'account_closed', ACCOUNT_CLOSED_NO_DEPOSIT);

/**
 * What a wallet request came to, kept under its key: the balance after it (with the authorisation a
 * card hold pays a gift with), or a card payment the page must still confirm (its secret is never kept).
 */
export type WalletOutcome =
  { kind: 'balance'; balanceCents: number; authorisation?: string } | { kind: 'started'; paymentIntentId: string; clientSecret?: string };

export const balanceOutcome = (balanceCents: number): WalletOutcome => ({ kind: 'balance', balanceCents });

/** Flips an intent from `from` (pending) to `status`; true only for the one caller whose update changed it. */
export async function claim(
  em: EntityManager,
  intent: Pick<PaymentIntent, 'id'>,
  status: PaymentIntentStatus,
  reference: string | null,
  from: PaymentIntentStatus = 'pending',
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PaymentIntentEntity)
    // A failure keeps the reference it had (an Elements deposit's PaymentIntent, still asked about).
    .set({ status, ...(reference === null ? {} : { providerReference: reference }), updatedAt: new Date() })
    .where('id = :id AND status = :from', { id: intent.id, from })
    .execute();
  return result.affected === 1;
}

/**
 * Whether the user's account is closed. With `lock` its row is locked for the transaction, so a
 * closing (which locks it first too) waits for it or is waited for.
 */
export async function accountClosed(em: EntityManager, userId: string, lock = false): Promise<boolean> {
  const user = await em.findOne(UserEntity, {
    where: { id: userId },
    select: { id: true, closedAt: true },
    ...(lock ? rowLockNoKey(em) : {}),
  });
  return !user || !!user.closedAt;
}

/**
 * The provider took or sent the money: record it in the ledger and answer the request. Money
 * taken for an account found closed goes to `system:unclaimed` (the intent `unclaimed`) and is
 * refunded to the card after the commit (unclaimed.ts), so a settlement never fails for good.
 */
export async function settleSucceeded(db: Database, intent: PaymentIntent, reference: string): Promise<boolean> {
  return db.transaction(async (em) => {
    // Unlocked: the credit's own conditional update refuses a closing that commits in between, and a retry lands here.
    if (intent.kind !== 'withdrawal' && (await accountClosed(em, intent.userId))) {
      if (!(await claim(em, intent, 'unclaimed', reference))) return false;
      await transfer(em, { from: SYSTEM_PAYMENTS, to: SYSTEM_UNCLAIMED, amountCents: intent.amountCents, kind: 'deposit', reference });
      await forgetIdempotencyRecord(em, intent.idempotencyRecordId);
      return true;
    }
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
    await completeIdempotencyRecord(em, intent.idempotencyRecordId, balanceOutcome(balanceCents));
    return true;
  });
}

/** The provider said no: nothing moved (a withdrawal's held money goes back) and the key is freed. */
export async function settleFailed(db: Database, intent: PaymentIntent, from: PaymentIntentStatus = 'pending'): Promise<boolean> {
  return db.transaction(async (em) => {
    if (!(await claim(em, intent, 'failed', null, from))) return false;
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
