import { z } from 'zod';
import { itemIdSchema } from './catalog.js';
import { dollars, isoTime, usernameRef } from './common.js';
import { GiftNote } from './conversations.js';
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

/**
 * POST /wishlists/archive: the owner moves a purchased item into their 'Received' section, where
 * it no longer counts toward the seven. Only purchased items can be archived (an unpurchased one
 * is simply removed by saving the list without it); archiving twice changes nothing.
 */
export const ArchiveItemBody = z.object({
  /** The wishlist's owner: must be the caller (403 otherwise). */
  username: usernameRef,
  /** The wishlist item's `_id`. */
  itemId: z.string().min(1).max(100),
});
export type ArchiveItemRequest = z.input<typeof ArchiveItemBody>;

/** POST /wishlists/purchase. */
export const PurchaseBody = z.object({
  wishlistUsername: usernameRef,
  /** Must be the caller (403 otherwise); identity comes from the token. */
  purchaserUserId: z.string().max(64).optional(),
  /** The wishlist item's `_id` (preferred) or its catalogue `itemId` (the first unpurchased one). */
  itemId: z.string().min(1).max(100),
  /** Accepted for the spec's clients and not used: the gift message is written by the server. */
  lastMessage: z.string().max(2000).optional(),
  /** The buyer's note to the owner, from the buyer's persona (conversations.ts `GiftNote`). */
  note: GiftNote,
  /** A card authorisation from POST /api/wallet/card-deposit `for` this item: credited and captured where the purchase lands. */
  authorisation: z.string().min(1).max(64).optional(),
});
export type PurchaseRequest = z.input<typeof PurchaseBody>;

/** GET /wishlists/get-transaction. */
export const TransactionQuery = z.object({
  /** The wishlist item's `_id`, or its catalogue `itemId` (the latest purchased one). */
  itemId: z.string().min(1).max(100),
  wishlistUsername: usernameRef,
});

export const WishlistItemView = z.object({
  _id: z.string(),
  /** The catalogue's product id. */
  itemId: z.string(),
  name: z.string(),
  title: z.string(),
  /** Dollars. */
  price: dollars,
  /** Dollars, or 'Calculated' when the marketplace calculates shipping at checkout. */
  shippingPrice: z.union([dollars, z.literal('Calculated')]),
  /** Dollars a purchase charges for shipping: the fixed cost, or the catalogue's estimate when 'Calculated'. */
  shippingCost: dollars,
  /** Dollars a purchase charges in all: price + shippingCost. Compare the balance with this. */
  total: dollars,
  condition: z.string(),
  description: z.string(),
  imageUrl: z.string(),
  /** The main image first, then the others. */
  allImages: z.array(z.string()),
  purchased: z.boolean(),
  /** ISO date of the purchase; only on purchased items. */
  purchasedAt: isoTime.optional(),
  /** ISO date the owner moved it to 'Received'; only on received items. */
  archivedAt: isoTime.optional(),
});
export type WishlistItemView = z.infer<typeof WishlistItemView>;

export const WishlistView = z.object({
  username: z.string(),
  /** The list: at most seven, purchased items included until their owner archives them. */
  items: z.array(WishlistItemView),
  /**
   * The owner's 'Received' section: purchased items they archived, newest first. Only the owner
   * sees it (empty for anyone else); like every item, it never says who bought what.
   */
  received: z.array(WishlistItemView),
  /** The owner has paused gifts: nobody can buy from the list for now. */
  giftsPaused: z.boolean(),
});
export type WishlistView = z.infer<typeof WishlistView>;

/** GET /wishlists/{username} and PUT /wishlists/update. */
export const WishlistResponse = z.object({ userWishlist: WishlistView });
export type WishlistResponse = z.infer<typeof WishlistResponse>;

/** POST /wishlists/purchase. */
export const PurchaseResponse = z.object({ conversationId: z.string() });
export type PurchaseResponse = z.infer<typeof PurchaseResponse>;

/** GET /wishlists/get-transaction. */
export const TransactionResponse = z.object({ wishlistTransactionData: z.object({ createdAt: isoTime }) });
export type TransactionResponse = z.infer<typeof TransactionResponse>;
