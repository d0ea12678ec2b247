import type { User } from '../users/entity.js';
import type { Link } from './entity.js';

/**
 * Who may see and use which link, written once (STYLE.md, "Who may see what"). The services
 * (links/commands.ts, links/queries.ts) ask these rules; nobody re-derives them inline. Pure: no
 * database, no Node.
 */

type Viewer = Pick<User, 'id'>;
type LinkOwner = Pick<Link, 'creatorId'>;

/** True when `viewer` made the link. */
const isCreator = (viewer: Viewer | undefined, link: LinkOwner): boolean => viewer !== undefined && viewer.id === link.creatorId;

/**
 * A user's list of links (`GET /links/profile/{username}`) is theirs to see, and a subscriber's:
 * seeing other people's links is a subscription benefit.
 */
export const canSeeProfileLink = (viewer: Pick<User, 'id' | 'isSubscribed'>, owner: Pick<User, 'id'>): boolean =>
  viewer.id === owner.id || viewer.isSubscribed;

/**
 * The link's metrics (views, distinct visitors: counts only) and the link itself once it is used
 * up or expired are for its creator.
 */
export const canSeeLinkMetrics = (viewer: Viewer | undefined, link: LinkOwner): boolean => isCreator(viewer, link);

/**
 * The visitor breakdown (per day, by source, signed in or not, phone or desktop) is a subscribed
 * creator's. It is aggregates only, every cell below 5 visitors hidden (links/breakdown.ts): who
 * visited, and when, is no one's to see, since a named visitor seen just before an anonymous gift
 * would be its giver (issue 8).
 */
export const canSeeVisitorBreakdown = (viewer: Pick<User, 'id' | 'isSubscribed'> | undefined, link: LinkOwner): boolean =>
  viewer !== undefined && isCreator(viewer, link) && viewer.isSubscribed;

/** A link is used (accepted, given to) by anyone but its creator. */
export const canRespondTo = (viewer: Viewer, link: LinkOwner): boolean => !isCreator(viewer, link);
