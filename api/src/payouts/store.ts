import type { EntityManager } from 'typeorm';
import { PayoutAccountEntity, type PayoutAccount } from './entity.js';

export function findPayoutAccount(em: EntityManager, userId: string): Promise<PayoutAccount | null> {
  return em.findOneBy(PayoutAccountEntity, { userId });
}

/** Records a new account; a twin that raced it with the same key made the same account, so a second row is skipped. */
export async function insertPayoutAccount(em: EntityManager, row: PayoutAccount): Promise<void> {
  await em.createQueryBuilder().insert().into(PayoutAccountEntity).values(row).orIgnore().execute();
}

export async function updatePayoutAccount(
  em: EntityManager,
  accountId: string,
  fields: Pick<PayoutAccount, 'status' | 'requirements' | 'bankLast4' | 'updatedAt'>,
): Promise<boolean> {
  const result = await em.update(PayoutAccountEntity, { accountId }, fields);
  return (result.affected ?? 0) > 0;
}
