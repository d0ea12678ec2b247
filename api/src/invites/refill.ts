import type { EntityManager } from 'typeorm';
import type { Config } from '../config.js';
import { UserEntity, type User } from '../users/entity.js';
import { InviteEntity } from './entity.js';
import { createInvite } from './service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type RefillConfig = Pick<Config, 'invitesPerUser' | 'inviteRefillDays'>;
type Clocked = Pick<User, 'invitesRefilledAt' | 'createdAt'>;

/**
 * Invite refill: an account regains one invite every INVITE_REFILL_DAYS, up to
 * INVITES_PER_USER unused ones. Worked out lazily, when invites are listed, asked about or used,
 * from `users.invites_refilled_at` (the anchor: when the clock last started or ticked).
 *
 * - Below the cap, every full period since the anchor brings one invite back (no more than the
 *   cap allows) and moves the anchor on by the periods counted, so a part period carries over.
 * - At the cap the clock stands still: the use of an invite from a full account restarts it
 *   (`restartClockIfFull`), so the next one arrives a full period after that use.
 * - The anchor only ever moves forward, through a conditional update: of two requests that race
 *   to refill, one moves it and makes the invites, the other changes nothing.
 */
export function refillPlan(user: Clocked, free: number, config: RefillConfig, now: Date) {
  const anchor = user.invitesRefilledAt ?? user.createdAt;
  const periodMs = config.inviteRefillDays * DAY_MS;
  const periods = Math.max(0, Math.floor((now.getTime() - anchor.getTime()) / periodMs));
  const add = Math.min(periods, Math.max(0, config.invitesPerUser - free));
  const nextAnchor = new Date(anchor.getTime() + periods * periodMs);
  const freeAfter = free + add;
  const nextInviteAt = freeAfter >= config.invitesPerUser ? null : new Date(nextAnchor.getTime() + periodMs);
  return { anchor, add, nextAnchor, freeAfter, nextInviteAt };
}

export function countFree(em: EntityManager, ownerId: string): Promise<number> {
  return em.countBy(InviteEntity, { ownerId, status: 'available' });
}

/** Moves the anchor forward to `to` unless someone already has; true when this call moved it. */
async function advanceAnchor(em: EntityManager, userId: string, to: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(UserEntity)
    .set({ invitesRefilledAt: to })
    .where('id = :id AND (invites_refilled_at IS NULL OR invites_refilled_at < :to)', { id: userId, to })
    .execute();
  return result.affected === 1;
}

/** Brings back the invites due to `user` inside `em`'s transaction; answers the free invites after. */
export async function refillInvites(em: EntityManager, user: User, config: RefillConfig, now = new Date()): Promise<number> {
  const free = await countFree(em, user.id);
  const plan = refillPlan(user, free, config, now);
  if (plan.add === 0) return free;
  if (!(await advanceAnchor(em, user.id, plan.nextAnchor))) return countFree(em, user.id);
  for (let i = 0; i < plan.add; i++) await createInvite(em, user.id);
  user.invitesRefilledAt = plan.nextAnchor;
  return plan.freeAfter;
}

/**
 * Before one of `ownerId`'s invites is used: refills what is due and, when the account is full,
 * restarts the clock at `now` (a full account's clock stands still). Answers the free invites.
 */
export async function refillBeforeUse(em: EntityManager, owner: User, config: RefillConfig, now = new Date()): Promise<number> {
  const free = await refillInvites(em, owner, config, now);
  if (free >= config.invitesPerUser && (await advanceAnchor(em, owner.id, now))) owner.invitesRefilledAt = now;
  return free;
}
