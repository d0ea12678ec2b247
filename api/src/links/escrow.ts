import type { EntityManager } from 'typeorm';
import { balanceOf, escrowAccount, transfer, userAccount } from '../money/ledger.js';
import { LinkEntity, type Link } from './entity.js';

/**
 * Gives what a closed give link's escrow still holds back to its creator, in one refund, and
 * answers the cents. Call it only from the close that won the link's conditional update, in the
 * same transaction: so each link is refunded once.
 */
export async function refundEscrow(em: EntityManager, link: Pick<Link, 'id' | 'creatorId'>): Promise<number> {
  const held = await balanceOf(em, escrowAccount(link.id));
  if (held <= 0) return 0;
  await transfer(em, { from: escrowAccount(link.id), to: userAccount(link.creatorId), amountCents: held, kind: 'refund' });
  return held;
}

/**
 * Closes a link that is still active (its time ran out, or its creator was suspended) and refunds a
 * give link's escrow; answers the cents refunded, or null when another close won the link first.
 */
export async function closeAndRefund(
  em: EntityManager,
  link: Pick<Link, 'id' | 'creatorId' | 'giveOrReceive'>,
  now: Date,
): Promise<number | null> {
  const result = await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ status: 'expired', closedAt: now })
    .where('id = :id AND status = :active', { id: link.id, active: 'active' })
    .execute();
  if (result.affected !== 1) return null;
  return link.giveOrReceive === 'give' ? refundEscrow(em, link) : 0;
}
