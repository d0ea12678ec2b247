import type { User } from '../users/entity.js';
import { isSubscribed } from '../users/policy.js';
import type { Subscription } from './entity.js';

/**
 * The subscription's benefits, written once (docs/DESIGN-RULES.md, "Who may see what"). Whether a
 * user is subscribed is derived from `users.subscribed_until`, which only the subscription service
 * sets (never a client field): `isSubscribed(user, now)` (users/policy.ts). The entitlement rules take a viewer whose
 * `isSubscribed` was worked out by that one function (`entitled`), so none of them can read a
 * stale or forged flag. Pure: no database, no Node.
 */

/** A user as the entitlement rules see them: who, and whether their benefits are on now. */
export interface Entitled {
  id: string;
  isSubscribed: boolean;
}

/** The one way to turn a user into an `Entitled` viewer. */
export const entitled = (user: Pick<User, 'id' | 'subscribedUntil'>, now: Date): Entitled => ({
  id: user.id,
  isSubscribed: isSubscribed(user, now),
});

/**
 * A user's list of links (`GET /links/profile/{username}`) is theirs to see, and a subscriber's:
 * seeing other people's links is a subscription benefit.
 */
export const canSeeProfileLink = (viewer: Entitled, owner: Pick<User, 'id'>): boolean => viewer.id === owner.id || viewer.isSubscribed;

/**
 * The visitor breakdown (per day, by source, signed in or not, phone or desktop) is a subscribed
 * creator's. It is aggregates only, merged until no number counts 1 to 4 visitors (links/breakdown.ts): who
 * visited, and when, is no one's to see, since a named visitor seen just before an anonymous gift
 * would be its giver.
 */
export const canSeeVisitorBreakdown = (viewer: Entitled | undefined, link: { creatorId: string }): boolean =>
  viewer !== undefined && viewer.id === link.creatorId && viewer.isSubscribed;

/** The private community server (COMMUNITY_INVITE_URL) is shown to subscribers only. */
export const canJoinCommunity = (viewer: Entitled): boolean => viewer.isSubscribed;

/**
 * Where the benefits end after a subscription change: the paid period's end while it is active or
 * canceled at period end (benefits last until then); nothing while incomplete or past due (a
 * failed renewal stops the benefits until it is paid), and nothing once canceled for good.
 */
export function benefitsUntil(sub: Pick<Subscription, 'status' | 'currentPeriodEnd'>): Date | null {
  return sub.status === 'active' ? sub.currentPeriodEnd : null;
}
