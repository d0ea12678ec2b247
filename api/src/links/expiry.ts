import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { UserEntity } from '../users/entity.js';
import { LinkEntity } from './entity.js';
import { closeAndRefund } from './escrow.js';

/**
 * Closes links whose time ran out and gives a give link's unused escrow back to its creator —
 * exactly once: the status flip is a conditional update, so of two racing sweeps (two API
 * processes) only one wins each link. A creator who paused gifts keeps theirs: its time stands still.
 */
export async function closeExpired(em: EntityManager, scope: { creatorId?: string; now: Date }): Promise<number> {
  const qb = em
    .createQueryBuilder(LinkEntity, 'l')
    .innerJoin(UserEntity.options.name, 'u', 'u.id = l.creator_id AND u.gifts_paused_at IS NULL')
    .where('l.status = :active', { active: 'active' })
    .andWhere('l.expires_at <= :now', { now: dateParam(em, scope.now) });
  if (scope.creatorId) qb.andWhere('l.creator_id = :creatorId', { creatorId: scope.creatorId });
  const due = await qb.orderBy('l.expires_at', 'ASC').limit(200).getMany();
  let closed = 0;
  for (const link of due) if ((await closeAndRefund(em, link, scope.now)) !== null) closed += 1;
  return closed;
}

/** One sweep over every expired link; safe to run from several processes at once. */
export function sweepExpiredLinks(db: Database, now = new Date()): Promise<number> {
  return db.transaction((em) => closeExpired(em, { now }));
}

/** On resume: the creator's open links get the time the pause took from them (`pausedAt` to `now`). */
export async function extendPausedLinks(em: EntityManager, creatorId: string, pausedAt: Date, now: Date): Promise<void> {
  const pausedFor = Math.max(0, now.getTime() - pausedAt.getTime());
  const open = await em.findBy(LinkEntity, { creatorId, status: 'active' });
  for (const link of open)
    await em.update(LinkEntity, { id: link.id, status: 'active' }, { expiresAt: new Date(link.expiresAt.getTime() + pausedFor) });
}
