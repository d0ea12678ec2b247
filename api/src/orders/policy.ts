import type { User } from '../users/entity.js';
import type { Order } from './entity.js';

/**
 * Who may see what of an order, written once (docs/DESIGN-RULES.md, "Who may see what"). Pure: no database.
 *
 * - An address is its owner's alone: no answer to anyone else carries it, not even a giver's
 *   view of the order it ships.
 * - An order is seen by its recipient (the item and the status, never the giver, whatever the
 *   gift's identity was: a named give link's maker is known from the link, not from the order)
 *   and by its giver (the item and the status, never the address).
 */
type Viewer = Pick<User, 'id'>;
type Parties = Pick<Order, 'recipientId' | 'giverId'>;

export type OrderRole = 'recipient' | 'giver';

/** The viewer's part in the order, or null when it is none of theirs. */
export function roleIn(viewer: Viewer, order: Parties): OrderRole | null {
  if (viewer.id === order.recipientId) return 'recipient';
  if (viewer.id === order.giverId) return 'giver';
  return null;
}

/** Only the owner sees, changes or removes an address. */
export const canSeeAddress = (viewer: Viewer, ownerId: string): boolean => viewer.id === ownerId;

/** The recipient sees where their own order ships; the giver never does. */
export const canSeeShipTo = (viewer: Viewer, order: Parties): boolean => roleIn(viewer, order) === 'recipient';

/** The recipient never learns who gave; the giver's id stays on the server. */
export const canSeeGiver = (viewer: Viewer, order: Parties): boolean => roleIn(viewer, order) === 'giver';
