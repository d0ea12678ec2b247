import crypto from 'node:crypto';
import { MoreThan, type EntityManager } from 'typeorm';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { UserEntity, type User } from '../users/entity.js';
import type { InviteSummary, JoinAvailability } from '../../contract/invites.js';
import { InviteEntity, LinkJoinEntity, type Invite } from './entity.js';
import { rowLock } from '../db/row-lock.js';
import { canJoinThrough } from './policy.js';
import { countFree, refillBeforeUse, refillInvites, refillPlan } from './refill.js';
import { consumeInvite, listInvites } from './service.js';

/**
 * Joining through someone's shared link or wishlist: the link itself is the invite. A visitor
 * registers with `via: username`; nobody's personal invites are spent. What keeps it from being
 * an open door: the owner's own setting, an open and unsuspended owner, and two rolling 24-hour
 * limits counted from `link_joins` inside the registering transaction (per owner and overall).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
type JoinLimits = Pick<Config, 'linkJoinsPerDay' | 'joinsPerDay'>;

/** Joins through `inviterId`'s links, and through everyone's, over the 24 hours before `now`. */
async function joinsToday(em: EntityManager, inviterId: string, now: Date): Promise<{ link: number; all: number }> {
  const since = new Date(now.getTime() - DAY_MS);
  const [link, all] = await Promise.all([
    em.countBy(LinkJoinEntity, { inviterId, createdAt: MoreThan(since) }),
    em.countBy(LinkJoinEntity, { createdAt: MoreThan(since) }),
  ]);
  return { link, all };
}

/** Whether `inviter`'s shared pages let a visitor join at `now`. */
export async function canJoinNow(em: EntityManager, inviter: User, limits: JoinLimits, now: Date): Promise<boolean> {
  if (!canJoinThrough(inviter)) return false;
  const joins = await joinsToday(em, inviter.id, now);
  return joins.link < limits.linkJoinsPerDay && joins.all < limits.joinsPerDay;
}

/** Whether a visitor can register through `username` now: no count, no code. */
export async function joinAvailability(deps: Deps, username: string, now = deps.clock()): Promise<JoinAvailability> {
  const inviter = await deps.db.manager.findOneBy(UserEntity, { username });
  const available = inviter !== null && (await canJoinNow(deps.db.manager, inviter, deps.config, now));
  return { available, displayName: available && inviter ? inviter.displayName || inviter.username : null };
}

/**
 * Whether a visitor may join through `username`'s shared pages, inside the registering
 * transaction: the owner's row is locked first so racing joins through one owner are counted one
 * after another. Answers the join to record once the account exists, or null when the owner does
 * not let visitors join or a limit is reached.
 */
export async function admitThroughLink(
  em: EntityManager,
  config: JoinLimits,
  username: string,
  now: Date,
): Promise<((newUserId: string) => Promise<void>) | null> {
  const inviter = await em.findOne(UserEntity, { where: { username }, ...rowLock(em) });
  if (!inviter || !(await canJoinNow(em, inviter, config, now))) return null;
  return async (userId) => {
    await em.insert(LinkJoinEntity, { id: crypto.randomUUID(), inviterId: inviter.id, userId, createdAt: now });
  };
}

/** Uses the invite `code` for `newUserId` (its owner's refill is settled first). */
export async function consumeInviteCode(em: EntityManager, config: Config, code: string, newUserId: string): Promise<boolean> {
  const invite = await em.findOneBy(InviteEntity, { code, status: 'available' });
  if (!invite) return false;
  const owner = invite.ownerId ? await em.findOneBy(UserEntity, { id: invite.ownerId }) : null;
  if (owner) await refillBeforeUse(em, owner, config);
  return consumeInvite(em, code, newUserId);
}

/** Refills `userId`'s invites if any are due; a transaction only when there is something to do. */
async function settleRefill(deps: Deps, userId: string, now: Date): Promise<User> {
  const user = await deps.db.manager.findOneBy(UserEntity, { id: userId });
  if (!user) throw notFound('User not found');
  if (refillPlan(user, await countFree(deps.db.manager, userId), deps.config, now).add === 0) return user;
  await deps.db.transaction(async (em) => {
    await refillInvites(em, await em.findOneByOrFail(UserEntity, { id: userId }), deps.config, now);
  });
  // Re-read: a racing request may have been the one to refill.
  return deps.db.manager.findOneByOrFail(UserEntity, { id: userId });
}

/** The user's invites, oldest first, after any refill due. */
export async function listInvitesRefilled(deps: Deps, userId: string, now = new Date()): Promise<Invite[]> {
  await settleRefill(deps, userId, now);
  return listInvites(deps.db, userId);
}

/** The user's invites at a glance, after any refill due: how many are free and when the next arrives. */
export async function inviteSummary(deps: Deps, userId: string, now = new Date()): Promise<InviteSummary> {
  const user = await settleRefill(deps, userId, now);
  const plan = refillPlan(user, await countFree(deps.db.manager, userId), deps.config, now);
  return {
    available: plan.freeAfter,
    max: deps.config.invitesPerUser,
    nextInviteAt: plan.nextInviteAt?.toISOString() ?? null,
    refillDays: deps.config.inviteRefillDays,
    letVisitorsJoin: user.letVisitorsJoin,
  };
}

/** The signed-in user's own join setting; answers the updated user. */
export async function setLetVisitorsJoin(deps: Deps, userId: string, letVisitorsJoin: boolean): Promise<User> {
  return deps.db.transaction(async (em) => {
    await em.update(UserEntity, { id: userId }, { letVisitorsJoin, updatedAt: new Date() });
    return em.findOneByOrFail(UserEntity, { id: userId });
  });
}
