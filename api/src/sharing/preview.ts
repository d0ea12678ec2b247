import { IsNull } from 'typeorm';
import { escapeHtml } from '../../contract/html.js';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { Deps } from '../deps.js';
import type { PageHead } from '../http/web.js';
import { canJoinNow } from '../invites/join.js';
import { isOpen, linkTime } from '../links/service.js';
import { LinkEntity, type Link } from '../links/entity.js';
import { UserEntity, type User } from '../users/entity.js';
import { WishlistItemEntity } from '../wishlists/entity.js';
import { LEGAL_PATHS } from '../../contract/legal.js';
import { HOME_MARKUP, LOGIN_MARKUP, legalMarkup, linkMarkup, linkWhat, wishlistHead, wishlistMarkup } from './pages.js';
import { shareImageUrl, sharePageUrl, type ShareKind } from './urls.js';

/**
 * Link previews: what a chat app or a social site shows when a link or wishlist page is pasted
 * (Open Graph and Twitter card tags in the page's <head>). They say what the share text says and
 * show the share image's `card` format, so preview and image always agree; nothing private
 * (balance, visitors, givers) ever appears. A page that names no open link or no user gets the
 * generic Giftlink card. Building a preview reads only: it never counts a view.
 */

/** The Open Graph image size (the share image's `card` format). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** The generic card's image, a static file of the website (renderer/public). */
export const GENERIC_CARD_PATH = '/og-card.png';
export const GENERIC_TITLE = 'Giftlink';
export const GENERIC_DESCRIPTION = 'Receive gifts from people who love you';

export interface PreviewCard {
  title: string;
  description: string;
  /** Absolute URL of a 1200×630 PNG under PUBLIC_URL. */
  image: string;
  imageAlt: string;
  /** Absolute URL of the page under PUBLIC_URL. */
  url: string;
}

/** `/link/{username}` or `/wishlist/{username}` (one trailing slash allowed). */
const PREVIEW_PATH = /^\/(link|wishlist)\/([^/]+)\/?$/;

/** The tags of a card, one a line, every value escaped. */
export function previewTags(card: PreviewCard): string {
  const tags: [attr: 'name' | 'property', key: string, value: string][] = [
    ['name', 'description', card.description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'Giftlink'],
    ['property', 'og:title', card.title],
    ['property', 'og:description', card.description],
    ['property', 'og:url', card.url],
    ['property', 'og:image', card.image],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', String(CARD_WIDTH)],
    ['property', 'og:image:height', String(CARD_HEIGHT)],
    ['property', 'og:image:alt', card.imageAlt],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', card.title],
    ['name', 'twitter:description', card.description],
    ['name', 'twitter:image', card.image],
    ['name', 'twitter:image:alt', card.imageAlt],
  ];
  const metas = tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`);
  return [`<title>${escapeHtml(card.title)}</title>`, ...metas].join('\n    ');
}

/** The name a card shows: the display name, else the username. */
const nameOf = (user: User) => user.displayName.trim() || user.username;

/** The card of an open link: '{name} is giving $5.00 on Giftlink' / 'is requesting …'. */
export function linkCard(publicUrl: string, creator: User, link: Link): PreviewCard {
  const name = nameOf(creator);
  const what = linkWhat(link);
  const give = link.giveOrReceive === 'give';
  const title = `${name} is ${give ? 'giving' : 'requesting'} ${what} on Giftlink`;
  const description = give ? `Open the link to receive ${what} from ${name}.` : `Send ${name} ${what} as a gift, anonymously.`;
  return {
    title,
    description,
    image: shareImageUrl(publicUrl, 'link', creator.username, { template: 'standard', format: 'card' }),
    imageAlt: title,
    url: sharePageUrl(publicUrl, 'link', creator.username),
  };
}

/** The card of a wishlist: "{name}'s wishlist on Giftlink". */
export function wishlistCard(publicUrl: string, owner: User): PreviewCard {
  const name = nameOf(owner);
  const title = `${name}'s wishlist on Giftlink`;
  return {
    title,
    description: `See what ${name} is wishing for and send a gift.`,
    image: shareImageUrl(publicUrl, 'wishlist', owner.username, { template: 'standard', format: 'card' }),
    imageAlt: title,
    url: sharePageUrl(publicUrl, 'wishlist', owner.username),
  };
}

/** The generic Giftlink card: an unknown user, or a link that is expired, used up or never made. */
export function genericCard(publicUrl: string, url: string): PreviewCard {
  return {
    title: GENERIC_TITLE,
    description: GENERIC_DESCRIPTION,
    image: publicUrl + GENERIC_CARD_PATH,
    imageAlt: `${GENERIC_TITLE}: ${GENERIC_DESCRIPTION}`,
    url,
  };
}

function usernameIn(segment: string): string | undefined {
  try {
    const name = decodeURIComponent(segment).trim().toLowerCase();
    return name.length > 0 && name.length <= 40 ? name : undefined;
  } catch {
    return undefined; // malformed percent-encoding
  }
}

/** How many wishlist items the page's first paint lists (the rest arrive with the app). */
export const MARKUP_ITEMS = 3;

/** The pages whose first paint is the same for every visitor, by path. */
const VISITOR_PAGES = new Map([
  ['/', HOME_MARKUP],
  ['/login', LOGIN_MARKUP],
]);

/** The wishlist's items on the list (not archived), in list order. */
const listedItems = (db: Database, ownerId: string) =>
  db.manager.find(WishlistItemEntity, { where: { ownerId, archivedAt: IsNull() }, order: { position: 'ASC' } });

/**
 * The preview of a page path: its card and, for an open link or a known wishlist, the page's
 * first paint (sharing/pages.tsx); undefined for a page that has none (only link and wishlist pages do). Reads
 * committed data only; never counts a view.
 */
export async function previewFor(
  db: Database,
  publicUrl: string,
  path: string,
  joins?: Pick<Config, 'linkJoinsPerDay' | 'joinsPerDay'>,
): Promise<{ card: PreviewCard; markup?: string; head?: string } | undefined> {
  const match = PREVIEW_PATH.exec(path);
  if (!match) return undefined;
  const kind: ShareKind = match[1] === 'link' ? 'link' : 'wishlist';
  const username = usernameIn(match[2]);
  const user = username ? await db.manager.findOneBy(UserEntity, { username }) : null;
  if (!user) return { card: genericCard(publicUrl, username ? sharePageUrl(publicUrl, kind, username) : `${publicUrl}/`) };
  const now = new Date();
  // Whether the app's banner offers 'Join Giftlink' here (GET /api/invites/join/{username} says the same).
  const joinable = async () => (joins ? canJoinNow(db.manager, user, joins, now) : false);
  if (kind === 'wishlist') {
    const items = await listedItems(db, user.id);
    const markup = wishlistMarkup(user, items.slice(0, MARKUP_ITEMS), items.length, await joinable());
    return { card: wishlistCard(publicUrl, user), markup, head: wishlistHead(items.slice(0, 1)) };
  }
  const link = await db.manager.findOne(LinkEntity, { where: { creatorId: user.id }, order: { createdAt: 'DESC' } });
  if (!link || !isOpen(link, linkTime(user, now))) return { card: genericCard(publicUrl, sharePageUrl(publicUrl, kind, user.username)) };
  return { card: linkCard(publicUrl, user, link), markup: linkMarkup(user, link, await joinable(), now) };
}

/**
 * The website's page heads for link and wishlist pages (http/web.ts), and a visitor's home and
 * login pages' markup. A database failure still answers the page, with the generic card, so the app opens and
 * shows its own error.
 */
export function linkPreviews(deps: Pick<Deps, 'db' | 'config' | 'log'>): PageHead {
  const { publicUrl } = deps.config;
  const host = new URL(publicUrl).hostname;
  const legalPages = new Map<string, string>([
    [LEGAL_PATHS.terms, legalMarkup('terms', host)],
    [LEGAL_PATHS.privacy, legalMarkup('privacy', host)],
  ]);
  return async (path, visitor) => {
    // A visitor's home and login pages paint before any script runs (a signed-in user's home greets
    // them by name, and the app sends a signed-in user on from /login).
    const visitorPage = VISITOR_PAGES.get(path) ?? legalPages.get(path);
    if (visitorPage) return visitor ? { root: visitorPage } : undefined;
    try {
      const preview = await previewFor(deps.db, publicUrl, path, deps.config);
      return preview && { head: [previewTags(preview.card), preview.head].filter(Boolean).join('\n    '), root: preview.markup };
    } catch (err) {
      deps.log.warn({ err, path }, 'link preview failed: answering the generic card');
      return { head: previewTags(genericCard(publicUrl, `${publicUrl}/`)) };
    }
  };
}
