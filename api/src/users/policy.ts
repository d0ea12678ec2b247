import type { User } from './entity.js';

/**
 * Who may act as whom and see what of a user, written once. Identity always comes from the
 * token (DESIGN.md, "Rules the spec leaves open"): where a request also names the user acting
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
