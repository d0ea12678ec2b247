import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate } from 'react-router-dom';
import { logEvent } from '../../analytics';
import { errorMessage } from '../../api/client';
import { isDefiniteFailure, shortfallOf, useCardDeposit, type CardPayment } from '../../components/card/useCardDeposit';
import type { WishlistItemView } from '../../api/types';
import { PURCHASE_FAILED, usePurchaseWishlistItem } from '../../api/wishlists';
import { randomUuid } from '../../ids';
import { balanceAtom, userAtom } from '../../state/session';

const enc = encodeURIComponent;

/**
 * Buying from someone's wishlist (PRODUCT.md §4): a visitor logs in first (and comes back to the
 * item), the balance covers the total and Yes confirms, or a short balance pays the rest by card
 * in one step (no confirm: the button says what it does); then the conversation the gift opened.
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
  const deposit = useCardDeposit();
  // The one-step purchase's key, kept for a retry after a network failure.
  const [attempt, setAttempt] = useState<{ itemId: string; key: string } | null>(null);
  const [cardError, setCardError] = useState<string | null>(null);

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
    send(confirm.item, confirm.key);
  }

  /** A balance short of the total: the card pays what is missing, then the item is bought, with no confirm (the button was it). */
  async function chargeAndBuy(item: WishlistItemView, payment: CardPayment) {
    if (!user || purchase.isPending || deposit.charging) return;
    setCardError(null);
    let authorisation: string | undefined;
    try {
      const target = { kind: 'purchase' as const, wishlistUsername: username, itemId: item._id };
      authorisation = await deposit.charge(item.total, shortfallOf(item.total, balance), payment, target);
    } catch (err) {
      setCardError(errorMessage(err, PURCHASE_FAILED));
      return;
    }
    const key = attempt?.itemId === item._id ? attempt.key : randomUuid();
    setAttempt({ itemId: item._id, key });
    send(item, key, () => setAttempt((a) => (a?.key === key ? null : a)), authorisation);
  }

  function send(wanted: WishlistItemView, key: string, onRefused?: () => void, authorisation?: string) {
    if (!user) return;
    purchase.mutate(
      { item: wanted, purchaserUserId: user._id, key, note: noteFor(wanted._id), authorisation },
      {
        onSuccess: ({ conversationId }, { item }) => {
          logEvent('wishlistTransaction', { name: item.name, price: item.price, shippingPrice: item.shippingCost, itemId: item.itemId });
          navigate(`/messages/${enc(conversationId)}`);
        },
        onError: (err) => {
          if (isDefiniteFailure(err)) onRefused?.();
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
    chargeAndBuy,
    /** The one-step purchase's card failure (shown in the item), or null. */
    cardError,
    charging: deposit.charging,
    /** Paying, and then on the way to the conversation. */
    busy: purchase.isPending || purchase.isSuccess,
    error,
    dismissError: () => setError(null),
  };
}
