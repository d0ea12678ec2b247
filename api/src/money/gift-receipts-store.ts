import { In, IsNull, type EntityManager } from 'typeorm';
import { GiftReceiptEntity, type GiftReceipt } from './entity.js';

/** The gifts of money to a person, by transfer and by message: what a return or a dispute's reversal acts on. */

export async function recordGiftReceipt(em: EntityManager, receipt: GiftReceipt): Promise<void> {
  await em.insert(GiftReceiptEntity, { ...receipt });
}

/** The standing gifts among `transferIds` that `recipientId` received. */
export function standingReceipts(em: EntityManager, transferIds: string[], recipientId: string): Promise<GiftReceipt[]> {
  if (!transferIds.length) return Promise.resolve([]);
  return em.find(GiftReceiptEntity, { where: { transferId: In(transferIds), recipientId, outcome: IsNull() } });
}

export const receiptOfMessage = (em: EntityManager, messageId: string): Promise<GiftReceipt | null> =>
  em.findOneBy(GiftReceiptEntity, { messageId });

/** Marks a standing gift returned or reversed; false when it was not standing any more (once per gift). */
export async function settleReceipt(em: EntityManager, transferId: string, outcome: 'returned' | 'reversed'): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(GiftReceiptEntity)
    .set({ outcome })
    .where('transfer_id = :transferId AND outcome IS NULL', { transferId })
    .execute();
  return result.affected === 1;
}
