import type { User } from '../users/entity.js';
import { canActAs, type Viewer } from '../users/policy.js';
import type { WishlistItem } from './entity.js';

/**
 * Who may edit, buy from and look into a wishlist, written once (docs/DESIGN-RULES.md, "Who may see what").
 * Everyone may see a wishlist. The service (wishlists/service.ts) asks these rules; nobody
 * re-derives them inline. Pure: no database, no Node.
 */

/** Only its owner edits a wishlist: the one the request names (by username) must be the viewer. */
export const canEditWishlist = (viewer: Viewer, owner: Pick<User, 'username'>): boolean => canActAs(viewer, { username: owner.username });

/** Anyone but its owner buys from a wishlist (a gift to oneself is no gift). */
export const canBuyFrom = (buyer: Pick<User, 'id'>, owner: Pick<User, 'id'>): boolean => buyer.id !== owner.id;

/**
 * When an item was bought is for the wishlist's owner and for that item's buyer; anyone else
 * learns nothing, not even whether the item exists.
 */
export const canSeePurchase = (
  viewer: Pick<User, 'id'>,
  owner: Pick<User, 'id'>,
  item: Pick<WishlistItem, 'purchaserId'> | null,
): boolean => viewer.id === owner.id || (item !== null && item.purchaserId === viewer.id);

/**
 * Only its owner archives an item into 'Received', and only an item that was bought: the section
 * is for gifts received, and an unpurchased item is removed by editing the list instead.
 */
export const canArchiveItem = (viewer: Viewer, owner: Pick<User, 'username'>, item: Pick<WishlistItem, 'purchased'>): boolean =>
  canEditWishlist(viewer, owner) && item.purchased;

/**
 * The 'Received' section is the owner's own record of gifts that arrived; visitors see the list
 * only. (Nothing in it names a buyer either way.)
 */
export const canSeeReceived = (viewer: Pick<User, 'id'> | null, owner: Pick<User, 'id'>): boolean =>
  viewer !== null && viewer.id === owner.id;
