import { z } from 'zod';
import { itemIdSchema } from './catalog.js';
import { usernameRef } from './common.js';
import { WISHLIST_MAX } from './limits.js';
import { TOO_MANY_ITEMS } from './texts.js';

/** Wishlist requests and answers. Money on the wire is dollars, as everywhere in the API. */

/**
 * An item of PUT /wishlists/update. Only `itemId` (the catalogue's product id) and, for an item
 * already on the list, its `_id` are read; every other field (price, title, purchased…) is
 * ignored: the server copies the product from the catalogue.
 */
export const WishlistItemInput = z.object({
  _id: z.string().max(64).optional(),
  itemId: itemIdSchema,
});

/** PUT /wishlists/update: the owner's whole list. */
export const UpdateWishlistBody = z.object({
  username: usernameRef,
  items: z.array(WishlistItemInput, { error: 'items: must be a list' }).max(WISHLIST_MAX, TOO_MANY_ITEMS),
});
export type UpdateWishlistRequest = z.input<typeof UpdateWishlistBody>;

export const WishlistParams = z.object({ username: usernameRef });

/** POST /wishlists/purchase. */
export const PurchaseBody = z.object({
  wishlistUsername: usernameRef,
  /** Must be the caller (403 otherwise); identity comes from the token. */
  purchaserUserId: z.string().max(64).optional(),
  /** The wishlist item's `_id` (preferred) or its catalogue `itemId` (the first unpurchased one). */
  itemId: z.string().min(1).max(100),
  /** Accepted for the spec's clients and not used: the gift message is written by the server. */
  lastMessage: z.string().max(2000).optional(),
});
export type PurchaseRequest = z.input<typeof PurchaseBody>;

/** GET /wishlists/get-transaction. */
export const TransactionQuery = z.object({
  /** The wishlist item's `_id`, or its catalogue `itemId` (the latest purchased one). */
  itemId: z.string().min(1).max(100),
  wishlistUsername: usernameRef,
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
