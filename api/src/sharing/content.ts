/**
 * What a share image says, and only that: the public face of a link or a wishlist. Built from
 * the link, its creator's public profile and the wishlist's items; never a balance, a visitor,
 * a metric or anything about a giver (the layout reads nothing else, see layout.test.ts).
 */
import { formatCents } from '../../contract/money.js';
import type { Link } from '../links/entity.js';
import type { User } from '../users/entity.js';
import type { WishlistItem } from '../wishlists/entity.js';
import { sharePageUrl, type ShareKind } from './urls.js';

/** A picture the image shows: where it comes from, read from disk or fetched when rendering. */
export type PictureSource = { kind: 'upload'; path: string } | { kind: 'catalog'; path: string } | { kind: 'remote'; url: string };

export interface ShareContent {
  kind: ShareKind;
  /** The creator's display name (their username when they have none) and @username. */
  displayName: string;
  username: string;
  avatar: PictureSource | null;
  /** 'is giving', 'is asking for', or 'My wishlist'. */
  headline: string;
  /** Currency links: the amount ('$5', '$2.50'). */
  amount?: string;
  /** Item links: the item's title and picture. */
  item?: { title: string; picture: PictureSource | null };
  /** Wishlists: the items still to be bought (title and picture). */
  wishes?: { title: string; picture: PictureSource | null }[];
  /** The line under the main figure ('for 3 people', 'Send a gift, anonymously'). */
  note: string;
  /** The short link, without its scheme ('giftlink.app/link/ann'). */
  shortLink: string;
}

/** Where a stored picture path or URL comes from; null for anything we will not read. */
export function pictureSource(location: string | null | undefined): PictureSource | null {
  if (!location) return null;
  if (/^\/uploads\/[0-9a-f-]{36}\.jpg$/.test(location)) return { kind: 'upload', path: location };
  if (/^\/catalog\/images\/[a-z0-9][a-z0-9_-]{0,150}\.jpg$/.test(location)) return { kind: 'catalog', path: location };
  if (/^https?:\/\/[^\s]+$/i.test(location)) return { kind: 'remote', url: location };
  return null;
}

const shortLink = (publicUrl: string, kind: ShareKind, username: string) =>
  sharePageUrl(publicUrl, kind, username).replace(/^https?:\/\//, '');

/** 'for one person' / 'for 3 people': the product's 'people' when the remaining quantity is above 1. */
export function forPeople(remaining: number): string {
  return remaining > 1 ? `for ${remaining} people` : 'for one person';
}

/** A link's image: give or receive, the amount or the item, the creator, the short link. */
export function linkContent(publicUrl: string, creator: User, link: Link): ShareContent {
  const give = link.giveOrReceive === 'give';
  const base = {
    kind: 'link' as const,
    displayName: creator.displayName.trim() || creator.username,
    username: creator.username,
    avatar: pictureSource(creator.profilePicture),
    headline: give ? 'is giving' : 'is asking for',
    shortLink: shortLink(publicUrl, 'link', creator.username),
  };
  const note = give ? forPeople(link.remainingQuantity) : 'Send a gift, anonymously';
  if (link.type === 'item') return { ...base, item: { title: link.title?.trim() || 'a gift', picture: pictureSource(link.photo) }, note };
  const amount = formatCents(link.amountCents, { brief: true });
  const each = give && link.remainingQuantity > 1 ? `, ${amount} each` : '';
  return { ...base, amount, note: `${note}${each}` };
}

/** A wishlist's image: the owner, 'My wishlist', the items still to be bought. */
export function wishlistContent(publicUrl: string, owner: User, items: WishlistItem[]): ShareContent {
  const open = items.filter((i) => !i.purchased);
  const count = open.length;
  return {
    kind: 'wishlist',
    displayName: owner.displayName.trim() || owner.username,
    username: owner.username,
    avatar: pictureSource(owner.profilePicture),
    headline: 'My wishlist',
    wishes: open.map((i) => ({ title: i.title, picture: pictureSource(i.imageUrl) })),
    note: count === 0 ? 'Wishes coming soon' : count === 1 ? '1 wish to make come true' : `${count} wishes to make come true`,
    shortLink: shortLink(publicUrl, 'wishlist', owner.username),
  };
}
