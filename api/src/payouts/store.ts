import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import { PayoutAccountEntity, type PayoutAccount } from './entity.js';

export function findPayoutAccount(em: EntityManager, userId: string): Promise<PayoutAccount | null> {
  return em.findOneBy(PayoutAccountEntity, { userId });
}

/** Records a new account; a twin that raced it with the same key made the same account, so a second row is skipped. */
export async function insertPayoutAccount(em: EntityManager, row: PayoutAccount): Promise<void> {
  await em.createQueryBuilder().insert().into(PayoutAccountEntity).values(row).orIgnore().execute();
}

/** Stores an account's state as of `fields.updatedAt`, unless a later one is already stored; false when nothing changed. */
export async function updatePayoutAccount(
  em: EntityManager,
  accountId: string,
  fields: Pick<PayoutAccount, 'status' | 'requirements' | 'bankLast4' | 'updatedAt'>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PayoutAccountEntity)
    .set(fields)
    .where('account_id = :accountId AND updated_at <= :at', { accountId, at: dateParam(em, fields.updatedAt) })
    .execute();
  return (result.affected ?? 0) > 0;
}

/** Only while no later payout event is stored: they can arrive out of order. */
const NOT_OLDER = '(payout_event_at IS NULL OR payout_event_at <= :at)';

/** Records the account's last failed bank payout as of `at`; false for an account none of ours, or an older event. */
export async function recordPayoutFailed(
  em: EntityManager,
  accountId: string,
  failed: Pick<PayoutAccount, 'failedPayoutCents' | 'failedPayoutCode' | 'failedPayoutMessage' | 'failedPayoutCreated' | 'failedPayoutAt'>,
  at: Date,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PayoutAccountEntity)
    .set({ ...failed, payoutEventAt: at })
    .where(`account_id = :accountId AND ${NOT_OLDER}`, { accountId, at: dateParam(em, at) })
    .execute();
  return (result.affected ?? 0) > 0;
}

/**
 * A bank payout made at `created` was paid, as of `at`: the failure recorded is cleared, unless that
 * payout was made before the failed one (its money is still waiting); false when nothing changed.
 */
export async function recordPayoutPaid(em: EntityManager, accountId: string, created: Date, at: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(PayoutAccountEntity)
    .set({
      failedPayoutCents: null,
      failedPayoutCode: null,
      failedPayoutMessage: null,
      failedPayoutCreated: null,
      failedPayoutAt: null,
      payoutEventAt: at,
    })
    .where(`account_id = :accountId AND ${NOT_OLDER} AND (failed_payout_created IS NULL OR failed_payout_created <= :created)`, {
      accountId,
      at: dateParam(em, at),
      created: dateParam(em, created),
    })
    .execute();
  return (result.affected ?? 0) > 0;
}
