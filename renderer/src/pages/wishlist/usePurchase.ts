import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate } from 'react-router-dom';
import { logEvent } from '../../analytics';
import { errorMessage } from '../../api/client';
import type { WishlistItemView } from '../../api/types';
import { PURCHASE_FAILED, usePurchaseWishlistItem } from '../../api/wishlists';
import { randomUuid } from '../../ids';
import { balanceAtom, userAtom } from '../../state/session';

const enc = encodeURIComponent;

/**
 * Buying from someone's wishlist (SPEC section 4): a visitor logs in first (and comes back to the
 * item), the balance must cover the total (else the item offers Add Funds), Yes confirms, then
 * the conversation the gift opened.
 */
export function usePurchase(username: string) {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const navigate = useNavigate();
  const location = useLocation();
  const purchase = usePurchaseWishlistItem(username);
  const [confirm, setConfirm] = useState<{ item: WishlistItemView; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The buyer's note, for the one item it was typed for (kept while the confirm is up and after a No).
  const [note, setNote] = useState<{ itemId: string; text: string } | null>(null);
  const noteFor = (itemId: string) => (note?.itemId === itemId ? note.text : '');

  function start(item: WishlistItemView) {
    if (!user) {
      navigate('/login', { state: { from: `${location.pathname}?item=${enc(item._id)}` } });
      return;
    }
    if (balance < item.total) return; // the item offers Add Funds instead
    setConfirm({ item, key: randomUuid() });
  }

  function buy() {
    if (!confirm || !user || purchase.isPending) return;
    purchase.mutate(
      { item: confirm.item, purchaserUserId: user._id, key: confirm.key, note: noteFor(confirm.item._id) },
      {
        onSuccess: ({ conversationId }, { item }) => {
          logEvent('wishlistTransaction', { name: item.name, price: item.price, shippingPrice: item.shippingCost, itemId: item.itemId });
          navigate(`/messages/${enc(conversationId)}`);
        },
        onError: (err) => {
          setConfirm(null);
          setError(errorMessage(err, PURCHASE_FAILED));
        },
      },
    );
  }

  return {
    /** The item waiting for Yes, if any. */
    confirm: confirm?.item ?? null,
    cancel: () => setConfirm(null),
    start,
    buy,
    /** The note typed for an item, and its setter. */
    noteFor,
    setNote: (itemId: string, text: string) => setNote({ itemId, text }),
    /** Paying, and then on the way to the conversation. */
    busy: purchase.isPending || purchase.isSuccess,
    error,
    dismissError: () => setError(null),
  };
}
