import { centsToDollars } from '../../contract/money.js';
import type { User } from '../users/entity.js';
import type { WishlistItem } from './entity.js';
import type { WishlistItemView, WishlistView } from '../../contract/wishlists.js';

function imageList(json: string, main: string): string[] {
  try {
    const list: unknown = JSON.parse(json);
    if (Array.isArray(list)) return list.filter((u): u is string => typeof u === 'string');
  } catch {
    // fall through to the main image alone
  }
  return [main];
}

/**
 * The only place a wishlist item becomes JSON. Who bought it (purchaserId) and the ledger
 * transfer are never presented, to the owner or anyone else.
 */
export function presentWishlistItem(item: WishlistItem): WishlistItemView {
  const shipping = item.shippingCents ?? 0;
  const view: WishlistItemView = {
    _id: item.id,
    itemId: item.itemId,
    name: item.name,
    title: item.title,
    price: centsToDollars(item.priceCents),
    shippingPrice: item.shippingType === 'CALCULATED' ? 'Calculated' : centsToDollars(shipping),
    shippingCost: centsToDollars(shipping),
    total: centsToDollars(item.priceCents + shipping),
    condition: item.condition,
    description: item.description,
    imageUrl: item.imageUrl,
    allImages: imageList(item.allImages, item.imageUrl),
    purchased: item.purchased,
  };
  if (item.purchased && item.purchasedAt) view.purchasedAt = item.purchasedAt.toISOString();
  if (item.archivedAt) view.archivedAt = item.archivedAt.toISOString();
  return view;
}

/**
 * The list (items not archived, in list order) and, when `showReceived` (the owner, see
 * `canSeeReceived`), the 'Received' section: archived items, the latest archived first.
 */
export function presentWishlist(
  owner: Pick<User, 'username' | 'giftsPausedAt'>,
  items: WishlistItem[],
  showReceived: boolean,
): WishlistView {
  const received = showReceived
    ? items.filter((i) => i.archivedAt !== null).sort((a, b) => (b.archivedAt?.getTime() ?? 0) - (a.archivedAt?.getTime() ?? 0))
    : [];
  return {
    username: owner.username,
    items: items.filter((i) => i.archivedAt === null).map(presentWishlistItem),
    received: received.map(presentWishlistItem),
    giftsPaused: owner.giftsPausedAt !== null,
  };
}
