import type { EntityManager } from 'typeorm';
import { rowLock } from '../db/row-lock.js';
import { UserEntity } from '../users/entity.js';
import { SubscriptionEntity, type Subscription } from './entity.js';
import { benefitsUntil } from './policy.js';

/**
 * The one way a subscription changes : inside the caller's transaction, the row is read
 * under a row lock (PostgreSQL; SQLite's transactions take turns anyway), changed, and the user's
 * `subscribed_until` (what `isSubscribed` reads) is set from the result in the same transaction.
 */

/** The subscription a `where` names, locked for the rest of the transaction; null when there is none. */
export async function lockSubscription(
  em: EntityManager,
  where: { id: string } | { userId: string } | { providerSubscriptionId: string },
): Promise<Subscription | null> {
  return em.findOne(SubscriptionEntity, { where, ...rowLock(em) });
}

/** Writes `changes` to a locked subscription and the user's benefits end that follows from them. */
export async function saveSubscription(
  em: EntityManager,
  sub: Subscription,
  changes: Partial<Subscription>,
  now: Date,
): Promise<Subscription> {
  const next: Subscription = { ...sub, ...changes, updatedAt: now };
  await em.update(SubscriptionEntity, { id: sub.id }, { ...changes, updatedAt: now });
  await em.update(UserEntity, { id: sub.userId }, { subscribedUntil: benefitsUntil(next) });
  return next;
}

/** The later of two period ends: a late event never shortens a period already paid for. */
export function laterEnd(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}

/**
 * Running: active and either renewing (a period that just ended waits for its renewal) or
 * canceled at a period end still ahead.
 */
export const isRunning = (sub: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>, now: Date): boolean =>
  sub.status === 'active' && sub.currentPeriodEnd !== null && (!sub.cancelAtPeriodEnd || sub.currentPeriodEnd.getTime() > now.getTime());

/** Over: canceled, or canceled at a period end that has passed (renewals.ts then marks it canceled). */
export const isOver = (sub: Pick<Subscription, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>, now: Date): boolean =>
  sub.status === 'canceled' || (sub.status === 'active' && sub.cancelAtPeriodEnd && !isRunning(sub, now));

/** The id the page sees: the provider's subscription id, or ours for balance payments. */
export const publicId = (sub: Pick<Subscription, 'id' | 'providerSubscriptionId'>): string => sub.providerSubscriptionId ?? sub.id;
