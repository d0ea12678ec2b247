import type { User } from '../users/entity.js';
import type { Link } from './entity.js';

/**
 * Who may see and use which link, written once (docs/DESIGN-RULES.md, "Who may see what"). The services
 * (the link commands, links/service.ts) ask these rules; nobody re-derives them inline. Pure: no
 * database, no Node.
 */

type Viewer = Pick<User, 'id'>;
type LinkOwner = Pick<Link, 'creatorId'>;

/** True when `viewer` made the link. */
const isCreator = (viewer: Viewer | undefined, link: LinkOwner): boolean => viewer !== undefined && viewer.id === link.creatorId;

/**
 * The subscriber benefits (`canSeeProfileLink`, `canSeeVisitorBreakdown`) are written once with the
 * subscription's other entitlements, in subscriptions/policy.ts; re-exported here for the links code.
 */
export { canSeeProfileLink, canSeeVisitorBreakdown } from '../subscriptions/policy.js';

/**
 * The link's metrics (views, distinct visitors: counts only) and the link itself once it is used
 * up or expired are for its creator.
 */
export const canSeeLinkMetrics = (viewer: Viewer | undefined, link: LinkOwner): boolean => isCreator(viewer, link);

/** A link is used (accepted, given to) by anyone but its creator. */
export const canRespondTo = (viewer: Viewer, link: LinkOwner): boolean => !isCreator(viewer, link);

/** Only its creator takes a link back (cancels it early). */
export const canCancel = (viewer: Viewer, link: LinkOwner): boolean => isCreator(viewer, link);
