/**
 * Sharing a link or a wishlist (PRODUCT.md §2, 'Share modal'): the image templates and formats
 * the server renders, the share texts with the spec's wording rules, and the addresses the share
 * targets open. Pure and isomorphic: no zod, no DOM, safe in any bundle.
 */

/** PRODUCT.md §9: the five share-image templates, in carousel order. */
export const SHARE_TEMPLATES = ['standard', 'purple-gradient', 'green-gradient', 'orange-gradient', 'blue-gradient'] as const;
export type ShareTemplate = (typeof SHARE_TEMPLATES)[number];

/** `story` 1080×1920 (Instagram), `card` 1200×630 (Open Graph: X, Messages, link previews). */
export const SHARE_FORMATS = ['story', 'card'] as const;
export type ShareFormat = (typeof SHARE_FORMATS)[number];

/** What is shared: a user's link or a user's wishlist. */
export type ShareKind = 'link' | 'wishlist';

/** Where it is shared: the modal's three tabs. */
export type ShareTarget = 'instagram' | 'twitter' | 'messages';

export const SHARE_TEMPLATE_NAMES: Record<ShareTemplate, string> = {
  standard: 'Standard',
  'purple-gradient': 'Purple',
  'green-gradient': 'Green',
  'orange-gradient': 'Orange',
  'blue-gradient': 'Blue',
};

/** The server's PNG for a link or wishlist: GET /links/{username}/image or /wishlists/{username}/image. */
export function shareImagePath(kind: ShareKind, username: string, template: ShareTemplate, format: ShareFormat): string {
  const base = kind === 'link' ? '/links' : '/wishlists';
  return `${base}/${encodeURIComponent(username)}/image?template=${template}&format=${format}`;
}

/** The file a downloaded share image is saved as. */
export function shareImageFileName(kind: ShareKind, username: string, template: ShareTemplate, format: ShareFormat): string {
  const safe = username.replace(/[^A-Za-z0-9_-]/g, '') || 'giftlink';
  return `giftlink-${kind}-${safe}-${template}-${format}.png`;
}

/** The `utm_source` each target's shared URL carries (the analytics' visitor sources). */
export const UTM_SOURCES: Record<ShareTarget, string> = { instagram: 'instagram', twitter: 'x', messages: 'messages' };

/**
 * The address to share on one target: the page's URL with `utm_source` naming the target, so the
 * owner's metrics can tell where visitors came from.
 */
export function shareUrl(pageUrl: string, target: ShareTarget): string {
  const url = new URL(pageUrl);
  url.searchParams.set('utm_source', UTM_SOURCES[target]);
  return url.toString();
}

// ---- the share texts ----------------------------------------------------------------------------

/** What the text needs to know about a link (a subset of LinkDetailsView). */
export interface ShareTextLink {
  giveorreceive: 'give' | 'receive';
  type: 'currency' | 'item';
  /** Dollars for one use (currency) or the item's total. */
  amount: number;
  remainingQuantity: number;
  title: string | null;
}

/** PRODUCT.md: 'dollar' for 1.99 or less, 'dollars' otherwise. */
export const dollarWord = (amount: number): 'dollar' | 'dollars' => (amount <= 1.99 ? 'dollar' : 'dollars');

/** An amount as it is read before 'dollars': `5`, `2.50`, `1,000`. */
export function spokenAmount(amount: number): string {
  const whole = Number.isInteger(amount);
  return amount.toLocaleString('en-US', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 });
}

/** Item titles longer than this are cut on a word boundary (a tweet has 280 characters). */
export const SHARE_TITLE_MAX = 60;

function shortTitle(title: string | null): string {
  const clean = (title ?? '').replace(/\s+/g, ' ').trim();
  if (!clean) return 'an item';
  if (clean.length <= SHARE_TITLE_MAX) return clean;
  const cut = clean.slice(0, SHARE_TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > SHARE_TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:-]+$/, '')}…`;
}

/**
 * The text shared with a link, without the link itself (it is typed and sent after it).
 * Give or receive × currency or item; 'people' only while more than one use remains.
 */
export function linkShareText(link: ShareTextLink): string {
  const what = link.type === 'currency' ? `${spokenAmount(link.amount)} ${dollarWord(link.amount)}` : shortTitle(link.title);
  const many = link.remainingQuantity > 1;
  const people = `${link.remainingQuantity} people`;
  if (link.giveorreceive === 'give') {
    return many
      ? `I'm giving away ${what} to ${people}! Open my Giftlink to claim yours:`
      : `I'm giving away ${what}! Be the first to open my Giftlink and claim it:`;
  }
  return many
    ? `I'm hoping ${people} will each gift me ${what}! Send yours anonymously with my Giftlink:`
    : `I'm hoping someone will gift me ${what}! Send it anonymously with my Giftlink:`;
}

/** The text shared with a wishlist, without the link. */
export const WISHLIST_SHARE_TEXT = 'Check out my wishlist on Giftlink! Gift me something from it anonymously:';

/** The text and the link as one message. */
export const shareMessage = (text: string, url: string): string => `${text} ${url}`;

// ---- where the texts go -------------------------------------------------------------------------

/** X's post intent with the text and the link (X adds the link's preview card). */
export function tweetIntentUrl(text: string, url: string): string {
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
}

/** A new text message with the body filled in (the form iOS and Android both read). */
export const smsUrl = (body: string): string => `sms:?&body=${encodeURIComponent(body)}`;

// ---- the typing animation -----------------------------------------------------------------------

/** PRODUCT.md: the share text is typed at 80 ms per character, the link at 50 ms. */
export const TYPE_TEXT_MS = 80;
export const TYPE_LINK_MS = 50;

/** How many characters of the text and of the link show `elapsed` ms after typing started. */
export function typedAt(elapsed: number, textLength: number, linkLength: number): { text: number; link: number } {
  const t = Math.max(0, elapsed);
  const textDone = textLength * TYPE_TEXT_MS;
  if (t < textDone) return { text: Math.floor(t / TYPE_TEXT_MS), link: 0 };
  return { text: textLength, link: Math.min(linkLength, Math.floor((t - textDone) / TYPE_LINK_MS)) };
}

/** How long typing the whole text and link takes. */
export const typingDuration = (textLength: number, linkLength: number): number => textLength * TYPE_TEXT_MS + linkLength * TYPE_LINK_MS;

/**
 * What a shared page needs before the app: written at build time by renderer/sharedPageCss.ts to
 * dist/web/.vite/shared-page.json, read by the server (api/src/http/shared-page.ts).
 */
export interface SharedPageAssets {
  /** The whole stylesheet's URL (the app loads it after the markup's first paint). */
  stylesheet: string;
  /** The rules the server's markup can use, inlined in the page in place of the whole stylesheet. */
  criticalCss: string;
}
