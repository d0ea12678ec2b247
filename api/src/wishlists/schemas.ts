import { z } from 'zod';
import { ITEM_ID } from '../catalog/schemas.js';

/**
 * Wishlist requests and answers. Browser-safe (zod only): the renderer imports these types.
 *
 * Money on the wire is dollars (numbers with at most two decimals), as everywhere in the API.
 */

export const WISHLIST_MAX = 7;

export const ITEM_INFO_ERROR = "There was an error loading this item's information. Please try again later.";
export const SHIPPING_ERROR = 'Item shipping options are missing or malformed. Please try again later.';
export const TOO_MANY_ITEMS = `A wishlist can hold at most ${WISHLIST_MAX} items.`;
export const OWN_ITEM = 'You cannot buy an item from your own wishlist.';
export const ALREADY_PURCHASED = 'This item has already been purchased.';
export const ITEM_NOT_FOUND = 'This item is not on the wishlist.';
export const USER_NOT_FOUND = 'User not found';
export const NOT_PURCHASED = 'This item has not been purchased.';
export const WISHLIST_BUSY = 'The wishlist changed while saving. Please try again.';

const username = z.string().trim().min(1).max(40).transform((s) => s.toLowerCase());

/**
 * An item of PUT /wishlists/update. Only `itemId` (the catalogue's product id) and, for an item
 * already on the list, its `_id` are read; every other field (price, title, purchased…) is
 * ignored: the server copies the product from the catalogue.
 */
export const WishlistItemInput = z.object({
  _id: z.string().max(64).optional(),
  itemId: z.string().regex(ITEM_ID, 'itemId: is invalid'),
});

export const UpdateWishlistBody = z.object({
  username,
  items: z.array(WishlistItemInput, { error: 'items: must be a list' }).max(WISHLIST_MAX, TOO_MANY_ITEMS),
});
export type UpdateWishlistRequest = z.input<typeof UpdateWishlistBody>;

export const WishlistParams = z.object({ username });

export const PurchaseBody = z.object({
  wishlistUsername: username,
  /** Must be the caller (403 otherwise); identity comes from the token. */
  purchaserUserId: z.string().max(64).optional(),
  /** The wishlist item's `_id` (preferred) or its catalogue `itemId` (the first unpurchased one). */
  itemId: z.string().min(1).max(100),
  /** Accepted for the spec's clients and not used: the gift message is written by the server. */
  lastMessage: z.string().max(2000).optional(),
});
export type PurchaseRequest = z.input<typeof PurchaseBody>;

export const TransactionQuery = z.object({
  /** The wishlist item's `_id`, or its catalogue `itemId` (the latest purchased one). */
  itemId: z.string().min(1).max(100),
  wishlistUsername: username,
});
export type TransactionRequest = z.input<typeof TransactionQuery>;

export interface WishlistItemView {
  _id: string;
  /** The catalogue's product id. */
  itemId: string;
  name: string;
  title: string;
  /** Dollars. */
  price: number;
  /** Dollars, or 'Calculated' when the marketplace calculates shipping at checkout. */
  shippingPrice: number | 'Calculated';
  /** Dollars a purchase charges for shipping: the fixed cost, or the catalogue's estimate when 'Calculated'. */
  shippingCost: number;
  /** Dollars a purchase charges in all: price + shippingCost. Compare the balance with this. */
  total: number;
  condition: string;
  description: string;
  imageUrl: string;
  /** The main image first, then the others. */
  allImages: string[];
  purchased: boolean;
  /** ISO date of the purchase; only on purchased items. */
  purchasedAt?: string;
}

export interface WishlistView {
  username: string;
  items: WishlistItemView[];
}

/** GET /wishlists/{username} and PUT /wishlists/update. */
export interface WishlistResponse {
  userWishlist: WishlistView;
}

/** POST /wishlists/purchase. */
export interface PurchaseResponse {
  conversationId: string;
}

/** GET /wishlists/get-transaction. */
export interface TransactionResponse {
  wishlistTransactionData: { createdAt: string };
}
