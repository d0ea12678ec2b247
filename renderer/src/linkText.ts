import type { LinkView } from './api/types';
import { formatDollars } from './format';

/** What a link gives or asks for: `$5.00` (one use) or the item's title. */
export function linkWhat(link: LinkView): string {
  return link.details.type === 'item' ? (link.details.title ?? 'an item') : formatDollars(link.details.amount);
}

/** The product's card wording: 'User is' / 'You are' + giving / requesting + amount or item. */
export function linkSentence(link: LinkView, mine: boolean): string {
  const verb = link.details.giveorreceive === 'give' ? 'giving' : 'requesting';
  return `${mine ? 'You are' : 'User is'} ${verb} ${linkWhat(link)}`;
}

export function isOwnLink(link: LinkView, username: string | null | undefined): boolean {
  return !!username && link.creatorUsername.toLowerCase() === username.toLowerCase();
}

export function linkPath(creatorUsername: string): string {
  return `/link/${encodeURIComponent(creatorUsername)}`;
}

/** The shareable address of a user's link. */
export function linkUrl(creatorUsername: string): string {
  return `${window.location.origin}${linkPath(creatorUsername)}`;
}
