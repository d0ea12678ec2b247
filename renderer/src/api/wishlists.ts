import { api, idempotent } from './client';
import type * as WishlistSchemas from '../../../api/src/wishlists/schemas';
import type {
  PurchaseRequest,
  PurchaseResponse,
  TransactionResponse,
  UpdateWishlistRequest,
  WishlistResponse,
} from './types';

const enc = encodeURIComponent;

/**
 * The API's WISHLIST_MAX (wishlists/schemas.ts), written out rather than imported: that module is
 * zod at run time; the type keeps the two equal.
 */
export const WISHLIST_MAX: typeof WishlistSchemas.WISHLIST_MAX = 7;

/** SPEC section 8, as written (the spelling is the spec's). */
export const WISHLIST_LOAD_ERROR = 'An errror occured when trying to load this wishlist. Please try again later.';
/** SPEC section 5: a purchase needs the balance to cover the item's total. */
export const ADD_MONEY = 'Add money to your account balance.';
/** When a purchase fails without a message of the server's. */
export const PURCHASE_FAILED = 'An error occurred when buying this item. Please try again later.';
/** When saving the owner's edit fails without a message of the server's. */
export const SAVE_FAILED = 'Your wishlist could not be saved. Please try again later.';

/** Anyone's wishlist, visitors included. */
export function getWishlist(username: string, signal?: AbortSignal) {
  return api.get<WishlistResponse>(`/wishlists/${enc(username)}`, { signal });
}

/**
 * Saves the owner's whole list. Only each item's catalogue `itemId` and, for items already on the
 * list, their `_id` are sent: the server copies everything else (prices too) from the catalogue.
 */
export function updateWishlist(username: string, items: readonly { itemId: string; _id?: string }[]) {
  const body: UpdateWishlistRequest = {
    username,
    items: items.map(({ itemId, _id }) => (_id ? { itemId, _id } : { itemId })),
  };
  return api.put<WishlistResponse>('/wishlists/update', body);
}

/** Buys one item (by its `_id`) for the wishlist's owner; `key` is a fresh Idempotency-Key per confirmed purchase. */
export function purchaseWishlistItem(body: PurchaseRequest, key: string) {
  return api.post<PurchaseResponse>('/wishlists/purchase', body, idempotent(key));
}

/** When an item was bought (its owner and its buyer may ask). */
export function getPurchaseTransaction(itemId: string, wishlistUsername: string, signal?: AbortSignal) {
  return api.get<TransactionResponse>(
    `/wishlists/get-transaction?itemId=${enc(itemId)}&wishlistUsername=${enc(wishlistUsername)}`,
    { signal },
  );
}
