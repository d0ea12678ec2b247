import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import type { SearchProduct, WishlistItemView } from '../../api/types';
import { SAVE_FAILED, WISHLIST_MAX, useSaveWishlist } from '../../api/wishlists';
import { randomUuid } from '../../ids';
import { productShipping, productTotal } from '../../productPrice';
import { useCacheWishlistImages } from '../../state/imageCache';

/** Shown when the owner adds an item that is already on the list (and not yet bought). */
export const ALREADY_ON_LIST = 'This item is already on your wishlist.';

/** An item on screen: the server's, or one the owner just added that is being saved. */
export type Row = WishlistItemView & { pending?: boolean };

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** A search result as a row to show at once, while the list is saved. */
function pendingRow(product: SearchProduct): Row {
  const option = product.shippingOptions[0];
  const shipping = productShipping(product) ?? 0;
  const imageUrl = product.image?.imageUrl ?? '';
  return {
    _id: `pending-${randomUuid()}`,
    itemId: product.itemId,
    name: product.title,
    title: product.title,
    price: Number(product.price.value),
    shippingPrice: option?.shippingCostType === 'CALCULATED' ? 'Calculated' : shipping,
    shippingCost: shipping,
    total: productTotal(product),
    condition: product.condition,
    description: product.description,
    imageUrl,
    allImages: [imageUrl, ...product.additionalImages.map((i) => i.imageUrl)].filter(Boolean),
    purchased: false,
    pending: true,
  };
}

/**
 * The owner's edits of their list, saved as they are made: the rows show the edit at once (a
 * draft over the list the server holds, which the query cache keeps), every change is saved,
 * changes made during a save follow it, and a failed save goes back to the server's list.
 */
export function useWishlistEditor(username: string, viewerId: string | null, saved: readonly WishlistItemView[]) {
  const save = useSaveWishlist(username, viewerId);
  const { mutateAsync: saveList } = save;
  const cacheWishlistImages = useCacheWishlistImages();
  const [draft, setDraft] = useState<Row[] | null>(null);
  const [status, setStatus] = useState<SaveState>({ kind: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const rows: readonly Row[] = draft ?? saved;

  const latest = useRef<Row[] | null>(null);
  const savedRef = useRef(saved);
  const saving = useRef(false);
  const dirty = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    savedRef.current = saved;
  });
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** The list as the owner sees it now (the draft, else the server's). */
  const current = (): readonly Row[] => latest.current ?? savedRef.current;

  function show(next: Row[] | null) {
    latest.current = next;
    setDraft(next);
  }

  async function saveLoop() {
    if (saving.current) {
      dirty.current = true;
      return;
    }
    saving.current = true;
    setStatus({ kind: 'saving' });
    try {
      do {
        dirty.current = false;
        const { userWishlist } = await saveList(current().map((row) => ({ itemId: row.itemId, _id: row.pending ? undefined : row._id })));
        if (!alive.current) return;
        if (!dirty.current) show(null); // the saved list is the server's answer, now in the cache
        void cacheWishlistImages(
          username,
          userWishlist.items.map((item) => item.imageUrl),
        );
      } while (dirty.current);
      setStatus({ kind: 'saved' });
    } catch (err) {
      if (!alive.current) return;
      // Undo what could not be saved: back to the list the server holds.
      dirty.current = false;
      show(null);
      setStatus({ kind: 'error', message: errorMessage(err, SAVE_FAILED) });
    } finally {
      saving.current = false;
    }
  }

  function edit(next: Row[]) {
    setNotice(null);
    show(next);
    void saveLoop();
  }

  /** Adds a search result; false when the list is full or already holds it. */
  function add(product: SearchProduct): boolean {
    const list = current();
    if (list.length >= WISHLIST_MAX) return false;
    if (list.some((row) => !row.purchased && row.itemId === product.itemId)) {
      setNotice(ALREADY_ON_LIST);
      return false;
    }
    edit([...list, pendingRow(product)]);
    return true;
  }

  function remove(id: string) {
    edit(current().filter((row) => row._id !== id || row.purchased));
  }

  return { rows, status, notice, add, remove };
}
