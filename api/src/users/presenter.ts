import { centsToDollars } from '../../contract/money.js';
import type { User } from './entity.js';
import { canSeePrivateProfile } from './policy.js';
import type { PrivateUser, PublicUser } from './schemas.js';

export function presentPublicUser(user: User): PublicUser {
  return {
    _id: user.id,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    location: user.location,
    profilePicture: user.profilePicture,
    coverPicture: user.coverPicture,
    isSubscribed: user.isSubscribed,
  };
}

export function presentPrivateUser(user: User): PrivateUser {
  return {
    ...presentPublicUser(user),
    email: user.email,
    stripeCustomerId: user.stripeCustomerId,
    balance: centsToDollars(user.balanceCents),
    letVisitorsJoin: user.letVisitorsJoin,
  };
}

/** The owner gets the private shape, everyone else the public one. */
export function presentUserFor(viewer: User | undefined, user: User): PublicUser | PrivateUser {
  return canSeePrivateProfile(viewer, user) ? presentPrivateUser(user) : presentPublicUser(user);
}
