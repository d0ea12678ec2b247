import { centsToDollars } from '../../contract/money.js';
import type { User } from './entity.js';
import { canSeePrivateProfile, isSubscribed } from './policy.js';
import type { PrivateUser, PublicUser } from '../../contract/users.js';

/** `now` decides `isSubscribed` (derived from the paid period, subscriptions/policy.ts). */
export function presentPublicUser(user: User, now: Date = new Date()): PublicUser {
  return {
    _id: user.id,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    location: user.location,
    profilePicture: user.profilePicture,
    coverPicture: user.coverPicture,
    isSubscribed: isSubscribed(user, now),
  };
}

export function presentPrivateUser(user: User, now: Date = new Date()): PrivateUser {
  return {
    ...presentPublicUser(user, now),
    email: user.email,
    stripeCustomerId: user.stripeCustomerId,
    balance: centsToDollars(user.balanceCents),
    letVisitorsJoin: user.letVisitorsJoin,
    showPresence: user.showPresence,
    giftsPaused: user.giftsPausedAt !== null,
  };
}

/** The owner gets the private shape, everyone else the public one. */
export function presentUserFor(viewer: User | undefined, user: User, now: Date = new Date()): PublicUser | PrivateUser {
  return canSeePrivateProfile(viewer, user) ? presentPrivateUser(user, now) : presentPublicUser(user, now);
}
