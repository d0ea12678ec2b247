import type { EntityManager } from 'typeorm';
import { GIFTS_PAUSED } from '../../contract/texts.js';
import { conflict, notFound } from '../errors.js';
import { UserEntity } from './entity.js';

/**
 * The one rule of a pause: no give, accept or purchase for someone who paused gifts. Run before a
 * card is touched (on `db.manager`) and again first thing in an accept's or a purchase's transaction
 * (on its `em`), so a pause that committed first is honoured. A give reads it with its link, just
 * before its transaction (links/store.ts), which keeps a give's statements as they were.
 */
export async function checkTakingGifts(em: EntityManager, userId: string): Promise<void> {
  const user = await em.findOne(UserEntity, { where: { id: userId }, select: { id: true, giftsPausedAt: true } });
  if (user?.giftsPausedAt) throw giftsPaused();
}

/** The refusal of a gift to someone who paused gifts. */
export const giftsPaused = () => conflict(GIFTS_PAUSED, 'gifts_paused');

/**
 * Pauses or resumes the user's gifts in `em`'s transaction, by conditional updates, so of two racing
 * requests one changes it. Answers when the pause began if this call ended it, else null.
 */
export async function setGiftsPaused(em: EntityManager, userId: string, paused: boolean, now: Date): Promise<{ resumedFrom: Date | null }> {
  const user = await em.findOne(UserEntity, { where: { id: userId }, select: { id: true, giftsPausedAt: true } });
  if (!user) throw notFound('User not found');
  const query = em.createQueryBuilder().update(UserEntity).where('id = :userId', { userId });
  if (paused) {
    await query.set({ giftsPausedAt: now }).andWhere('gifts_paused_at IS NULL').execute();
    return { resumedFrom: null };
  }
  if (!user.giftsPausedAt) return { resumedFrom: null };
  const ended = await query.set({ giftsPausedAt: null }).andWhere('gifts_paused_at IS NOT NULL').execute();
  return { resumedFrom: ended.affected === 1 ? user.giftsPausedAt : null };
}
