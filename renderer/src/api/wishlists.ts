import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call, idempotent } from './client';
import { unlessReadAhead } from './queryClient';
import { conversationKeys } from './conversations';
import type { ArchiveItemRequest, PurchaseRequest, WishlistItemView, WishlistView, UpdateWishlistRequest } from './types';

export { WISHLIST_MAX } from '../../../api/contract/limits';
export { ADD_MONEY, WISHLIST_LOAD_ERROR } from '../../../api/contract/texts';

/** When moving an item to 'Received' fails without a message of the server's. */
export const ARCHIVE_FAILED = 'The item could not be moved to Received. Please try again later.';

/** When a purchase fails without a message of the server's. */
export const PURCHASE_FAILED = 'An error occurred when buying this item. Please try again later.';
/** When saving the owner's edit fails without a message of the server's. */
export const SAVE_FAILED = 'Your wishlist could not be saved. Please try again later.';

/** Anyone's wishlist, visitors included. */
export function getWishlist(username: string, signal?: AbortSignal) {
  return call('GET /wishlists/:username', { params: { username }, signal });
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
  return call('PUT /wishlists/update', { body });
}

/** Moves one purchased item (by its `_id`) of the owner's list into their 'Received' section. */
export function archiveWishlistItem(username: string, itemId: string) {
  const body: ArchiveItemRequest = { username, itemId };
  return call('POST /wishlists/archive', { body });
}

/** Buys one item (by its `_id`) for the wishlist's owner; `key` is a fresh Idempotency-Key per confirmed purchase. */
export function purchaseWishlistItem(body: PurchaseRequest, key: string) {
  return call('POST /wishlists/purchase', { body, ...idempotent(key) });
}

// ---- the query cache ----------------------------------------------------------------------------

export const wishlistKeys = {
  all: ['wishlists'] as const,
  byUsername: (username: string) => [...wishlistKeys.all, username.toLowerCase()] as const,
  /** What `viewerId` (null for a visitor) is shown of it. */
  view: (username: string, viewerId: string | null) => [...wishlistKeys.byUsername(username), viewerId] as const,
};

/** Anyone's wishlist, as the server holds it. */
export const wishlistQuery = (username: string, viewerId: string | null) =>
  queryOptions({
    queryKey: wishlistKeys.view(username, viewerId),
    queryFn: async ({ signal }) => (await getWishlist(username, signal)).userWishlist,
  });

/** The wishlist page's read of `wishlistQuery` (read ahead on a first load: boot.tsx). */
export function useWishlistQuery(username: string, viewerId: string | null) {
  return useQuery({ ...wishlistQuery(username, viewerId), refetchOnMount: unlessReadAhead });
}

/** Saves the owner's whole list; what the server answers becomes the cached list. */
export function useSaveWishlist(username: string, viewerId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (items: readonly { itemId: string; _id?: string }[]) => updateWishlist(username, items),
    onSuccess: ({ userWishlist }) => queryClient.setQueryData<WishlistView>(wishlistKeys.view(username, viewerId), userWishlist),
  });
}

/** Moves a purchased item into 'Received'; what the server answers becomes the cached list. */
export function useArchiveWishlistItem(username: string, viewerId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) => archiveWishlistItem(username, itemId),
    onSuccess: ({ userWishlist }) => queryClient.setQueryData<WishlistView>(wishlistKeys.view(username, viewerId), userWishlist),
  });
}

/**
 * Buys one item for the list's owner (`key`: one Idempotency-Key per confirmed purchase). It
 * resolves once the balance has been re-read; the gift opened (or reused) a conversation. When
 * the item has gone or been bought meanwhile, the list is read again.
 */
export function usePurchaseWishlistItem(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      item,
      purchaserUserId,
      key,
      note,
      authorisation,
    }: {
      item: WishlistItemView;
      purchaserUserId: string;
      key: string;
      note?: string;
      authorisation?: string;
    }) =>
      purchaseWishlistItem(
        {
          wishlistUsername: username,
          purchaserUserId,
          itemId: item._id,
          lastMessage: `You received a gift from your wishlist: ${item.title}!`,
          // The buyer's note, left out when blank (the server reads blank as none).
          ...(note?.trim() ? { note } : {}),
          ...(authorisation ? { authorisation } : {}),
        },
        key,
      ),
    // The balance that moved is pushed (`balance`).
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: wishlistKeys.byUsername(username) });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
    onError: (err) => {
      // Show what is true now: the item may be gone or bought.
      if (err instanceof ApiError && (err.status === 409 || err.status === 404))
        void queryClient.invalidateQueries({ queryKey: wishlistKeys.byUsername(username) });
    },
  });
}
