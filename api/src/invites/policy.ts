import type { User } from '../users/entity.js';
import { isSuspended } from '../users/policy.js';

/**
 * Whether visitors of `inviter`'s shared link or wishlist may join through it: while the owner's
 * own setting (`letVisitorsJoin`, on by default) says so and the account is open and not suspended.
 * The daily limits are counted apart (invites/join.ts).
 */
export const canJoinThrough = (inviter: Pick<User, 'letVisitorsJoin' | 'closedAt' | 'suspendedAt'> | null): boolean =>
  inviter !== null && inviter.letVisitorsJoin && !inviter.closedAt && !isSuspended(inviter);
