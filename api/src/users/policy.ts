import type { User } from './entity.js';

/**
 * Who may act as whom and see what of a user, written once. Identity always comes from the
 * token (docs/DESIGN-RULES.md, "Rules the product leaves open"): where a request also names the user acting
 * (`userId`, `purchaserUserId`, `creatorUsername`, …), it must name the signed-in user, or the
 * answer is a 403. Routes, services and socket handlers ask these rules; nobody compares ids or
 * usernames inline. Pure: no database, no Node.
 */

/** The signed-in user as the rules need them; a socket knows only the id. */
export type Viewer = Pick<User, 'id'> & Partial<Pick<User, 'username'>>;

/** Whom a request names as the one acting: by id, by username (any case), or both. */
export interface NamedActor {
  userId?: string;
  username?: string;
}

/** True when `viewer` is the user `username` names (usernames are stored lower-case; any case names them). */
const isNamed = (viewer: Viewer, username: string): boolean => viewer.username !== undefined && username.toLowerCase() === viewer.username;

/**
 * A request made by `viewer` may name `named` as the one acting: every name it gives (an id, a
 * username) is the viewer's own. Naming no one is fine: the token says who acts.
 */
export const canActAs = (viewer: Viewer, named: NamedActor): boolean =>
  (named.userId === undefined || named.userId === viewer.id) && (named.username === undefined || isNamed(viewer, named.username));

/** The private fields of a user (email, balance, payment ids) are for that user alone. */
export const canSeePrivateProfile = (viewer: Viewer | undefined, user: Pick<User, 'id'>): boolean => viewer?.id === user.id;

/** A suspended account cannot log in or use a session. */
export function isSuspended(user: Pick<User, 'suspendedAt'>): boolean {
  return user.suspendedAt !== null && user.suspendedAt !== undefined;
}

/** True while the paid benefits last: the period paid for (active, or canceled at period end) has not ended. */
export const isSubscribed = (user: Pick<User, 'subscribedUntil'>, now: Date): boolean =>
  user.subscribedUntil !== null && user.subscribedUntil.getTime() > now.getTime();

/** A closed account's username stays taken this long, then anyone may register it. */
export const USERNAME_RELEASE_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/** Accounts closed before this instant have released their usernames. */
export const releasedBefore = (now: Date): Date => new Date(now.getTime() - USERNAME_RELEASE_DAYS * DAY_MS);

/** Whether a closed account's username is free again at `now`. */
export const isUsernameReleased = (closedAt: Date | null | undefined, now: Date): boolean =>
  closedAt != null && closedAt.getTime() < releasedBefore(now).getTime();
