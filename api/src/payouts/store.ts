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
