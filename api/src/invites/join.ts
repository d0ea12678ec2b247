import type { EntityManager } from 'typeorm';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { UserEntity, type User } from '../users/entity.js';
import type { InviteSummary, JoinAvailability } from '../../contract/invites.js';
import { InviteEntity, type Invite } from './entity.js';
import { canJoinThrough } from './policy.js';
import { countFree, refillBeforeUse, refillInvites, refillPlan } from './refill.js';
import { consumeInvite, listInvites } from './service.js';

/**
 * Joining through someone's link and the invite reads that refill first. A visitor
 * registers with `via: username`; one of that user's unused invites is used up inside the
 * registering transaction, with the same guarantee as an invite code: one invite, one account.
 */

/** Whether a visitor can register through `username` now (a refill due counts): no count, no code. */
export async function joinAvailability(deps: Deps, username: string, now = new Date()): Promise<JoinAvailability> {
  const inviter = await deps.db.manager.findOneBy(UserEntity, { username });
  if (!inviter) return { available: false, displayName: null };
  const plan = refillPlan(inviter, await countFree(deps.db.manager, inviter.id), deps.config, now);
  const available = canJoinThrough(inviter, plan.freeAfter);
  return { available, displayName: available ? inviter.displayName || inviter.username : null };
}

/**
 * Uses one of `username`'s unused invites for `newUserId`, inside the registering transaction.
 * Each candidate is taken by a conditional update, so racing registrations never share one; a
 * lost race moves on to the next candidate. False when the setting is off or none is left.
 */
export async function consumeInviteVia(
  em: EntityManager,
  config: Config,
  username: string,
  newUserId: string,
  now = new Date(),
): Promise<boolean> {
  const inviter = await em.findOneBy(UserEntity, { username });
  if (!inviter || !canJoinThrough(inviter, await refillBeforeUse(em, inviter, config, now))) return false;
  const candidates = await em.find(InviteEntity, {
    select: { id: true },
    where: { ownerId: inviter.id, status: 'available' },
    order: { createdAt: 'ASC', id: 'ASC' },
  });
  for (const { id } of candidates) {
    const result = await em
      .createQueryBuilder()
      .update(InviteEntity)
      .set({ status: 'used', usedById: newUserId, usedAt: now })
      .where('id = :id AND status = :status', { id, status: 'available' })
      .execute();
    if (result.affected === 1) return true;
  }
  return false;
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
