import type { User } from '../users/entity.js';

/**
 * Whether visitors of `inviter`'s links may register with one of the inviter's invites: only while
 * the inviter's own setting (`letVisitorsJoin`, on by default) says so and an invite is free.
 */
export const canJoinThrough = (inviter: Pick<User, 'letVisitorsJoin'> | null, freeInvites: number): boolean =>
  inviter !== null && inviter.letVisitorsJoin && freeInvites > 0;
