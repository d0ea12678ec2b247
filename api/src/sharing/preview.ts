import { IsNull } from 'typeorm';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { Deps } from '../deps.js';
import type { PageHead } from '../http/web.js';
import { canJoinThrough } from '../invites/policy.js';
import { countFree, refillPlan } from '../invites/refill.js';
import { isGroupGift } from '../links/group-gift.js';
import { isOpen } from '../links/service.js';
import { LinkEntity, type Link } from '../links/entity.js';
import { formatCents } from '../../contract/money.js';
import { PASSWORD_MIN_LENGTH } from '../../contract/limits.js';
import { FEED_LOADING, HOME_FEED_TITLE, HOME_HEADLINE, HOME_INTRO, LOGIN_TAGLINE, LOGIN_TITLE } from '../../contract/texts.js';
import { relativeTimeText } from '../../contract/time.js';
import { UserEntity, type User } from '../users/entity.js';
import { WISHLIST_MAX_ITEMS, WishlistItemEntity, type WishlistItem } from '../wishlists/entity.js';
import { DEFAULT_AVATAR } from './mark.js';
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

/** Text for an HTML attribute value or element content: all five special characters escaped. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

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

/** What a link gives or asks for, as its share text says it: '$5.00' or the item's title. */
const linkWhat = (link: Link) => (link.type === 'item' ? (link.title ?? 'an item') : formatCents(link.amountCents));

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

/** How many wishlist items the page's static markup lists (the rest arrive with the app). */
export const MARKUP_ITEMS = 3;

/**
 * The static page around a page's content: the app's own shell as a visitor sees it (top bar,
 * visitor banner with its 'Join Giftlink' when the app shows one, main), so the app replaces it in
 * place, without a jump (renderer/src/components/AppLayout.tsx, TopBar.tsx, VisitorBanner.tsx).
 */
const shell = (content: string, joinVia?: string) =>
  `<div class="app"><header class="topbar"><div class="topbar__inner">` +
  `<a href="/" class="topbar__home" aria-label="Giftlink home"><img src="/favicon.svg" alt="" width="34" height="34" /><span class="wordmark">Giftlink</span></a>` +
  `<div class="topbar__actions"><a class="btn btn--sm btn--ghost" href="/login">Login</a><a class="btn btn--sm btn--primary" href="/register">Register</a></div>` +
  `</div></header><aside class="${joinVia ? 'visitor-banner visitor-banner--join' : 'visitor-banner'}" aria-label="For visitors">` +
  `<span class="visitor-banner__message">${icon(GIFT_PATHS, 18)}<p>Log in or register to gain full access to all features</p></span>` +
  (joinVia
    ? `<a class="btn btn--sm btn--primary visitor-banner__join" href="/register?via=${escapeHtml(encodeURIComponent(joinVia))}">Join Giftlink</a>`
    : '') +
  `</aside><main class="app-main" id="main">${content}</main></div>`;

/** The app's coins and package icons (renderer/src/components/Icons.tsx), drawn the same way. */
const COINS_PATHS =
  '<circle cx="12" cy="12" r="9" /><path d="M14.8 9.2c-.5-.9-1.6-1.4-2.8-1.4-1.6 0-2.8.8-2.8 2s1.2 1.7 2.8 2.1 2.8.9 2.8 2.1-1.2 2.1-2.8 2.1c-1.3 0-2.4-.6-2.9-1.5M12 6v1.8M12 16.2V18" />';
const PACKAGE_PATHS = '<path d="M21 8 12 3 3 8v8l9 5 9-5Z" /><path d="m3 8 9 5 9-5M12 13v8" />';
const GIFT_PATHS =
  '<rect x="3" y="8" width="18" height="4" rx="1" /><path d="M5 12v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8" /><path d="M12 8v13" />' +
  '<path d="M12 8S10.5 3.5 7.8 4.1C5.6 4.6 6.3 8 9 8h3Zm0 0s1.5-4.5 4.2-3.9C18.4 4.6 17.7 8 15 8h-3Z" />';
const LOCK_PATHS = '<rect x="4.5" y="10.5" width="15" height="10" rx="2" /><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />';
const icon = (paths: string, size = 36) =>
  `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${paths}</svg>`;

/** The app's relative time (renderer/src/format.ts, in English): 'just now', '2 hours ago'. */
export const relativeTime = (then: Date, now: Date): string => relativeTimeText((now.getTime() - then.getTime()) / 1000, 'en');

/** A group gift's progress bar and words, as the app draws them (renderer/src/components/LinkCard.tsx). */
function progressMarkup(link: Link): string {
  const of = `${formatCents(link.raisedCents)} of ${formatCents(link.totalCostCents)}`;
  const text = link.gifts === 0 ? `${of} so far` : `${of} from ${link.gifts} ${link.gifts === 1 ? 'person' : 'people'}`;
  const percent = link.totalCostCents > 0 ? Math.min(100, Math.round((link.raisedCents / link.totalCostCents) * 100)) : 0;
  return (
    `<span class="gift-progress"><span class="gift-progress__track" role="progressbar" aria-label="Gifts so far" aria-valuemin="0" ` +
    `aria-valuemax="${link.totalCostCents / 100}" aria-valuenow="${link.raisedCents / 100}" aria-valuetext="${escapeHtml(text)}">` +
    `<span class="gift-progress__fill" style="width: ${percent}%;"></span></span><span class="gift-progress__text">${escapeHtml(text)}</span></span>`
  );
}

/**
 * A link page's static markup: the link card (creator, when, what it gives or asks for, the item's
 * image, a group gift's progress) and the visitor's log-in box, as the app draws them for a
 * signed-out visitor (renderer/src/pages/link/LinkHero.tsx; profiles are not public, so the
 * creator shows as @username), so the app takes over without moving anything. Public fields
 * only: no balance, no views, no givers. `canJoin`: the banner offers 'Join Giftlink'.
 */
export function linkMarkup(creator: User, link: Link, canJoin = false, now = new Date()): string {
  const give = link.giveOrReceive === 'give';
  const at = escapeHtml(`@${creator.username}`);
  const media =
    link.type === 'item' && link.photo
      ? `<img src="${escapeHtml(link.photo)}" alt="" width="96" height="96" />`
      : icon(link.type === 'item' ? PACKAGE_PATHS : COINS_PATHS);
  const shipping = link.type === 'item' ? `<p class="muted small">${escapeHtml(formatCents(link.amountCents))} with shipping</p>` : '';
  const left =
    give && link.type === 'currency' && link.initialQuantity > 1
      ? `<p class="link-hero__left">${link.remainingQuantity} of ${link.initialQuantity} left</p>`
      : '';
  return shell(
    `<div class="link-page"><article class="card link-hero" aria-labelledby="link-title">` +
      `<div class="link-hero__creator"><img class="avatar" src="${DEFAULT_AVATAR}" alt="" width="48" height="48" />` +
      `<div><p class="link-hero__name">${at}</p><p class="muted small">${escapeHtml(relativeTime(link.createdAt, now))}</p></div></div>` +
      `<div class="${give ? 'link-hero__gift link-hero__gift--give' : 'link-hero__gift'}">` +
      `<span class="link-hero__media" aria-hidden="true">${media}</span>` +
      `<div class="link-hero__text"><p class="link-hero__eyebrow">${give ? 'Gift link' : 'Gift request'}</p>` +
      `<h1 id="link-title" class="link-hero__title">${at} is ${give ? 'giving' : 'requesting'} ` +
      `<span class="link-hero__what">${escapeHtml(linkWhat(link))}</span></h1>${shipping}${left}</div></div>` +
      `${isGroupGift(link) ? progressMarkup(link) : ''}</article>` +
      `<section class="card link-actions link-actions--visitor" aria-label="Log in to use this link">${icon(LOCK_PATHS, 22)}` +
      `<p>Log in or register to ${give ? 'accept this gift' : 'give to this link'}.</p><div class="link-actions__row">` +
      `<a class="btn btn--primary" href="/login">Login</a><a class="btn" href="/register">Register</a></div></section></div>`,
    canJoin ? creator.username : undefined,
  );
}

/** The app's plus and refresh icons (renderer/src/components/Icons.tsx). */
const PLUS_PATHS = '<path d="M12 5v14M5 12h14" />';
const REFRESH_PATHS =
  '<path d="M20 11a8 8 0 0 0-14.3-4.9L4 8" /><path d="M4 4v4h4" /><path d="M4 13a8 8 0 0 0 14.3 4.9L20 16" /><path d="M20 20v-4h-4" />';

/**
 * The home page as a visitor first sees it (renderer/src/pages/HomePage.tsx): the hero, and the
 * feed's header over its spinner. The feed itself is read once the page has painted, by the app.
 * The same for every visitor: made once.
 */
const HOME_MARKUP = shell(
  `<div class="home"><div class="home__pull" style="height: 0px;" aria-hidden="true"></div>` +
    `<section class="home__hero"><div class="home__hero-text"><p class="home__eyebrow">Giftlink</p>` +
    `<h1>${escapeHtml(HOME_HEADLINE)}</h1><p>${escapeHtml(HOME_INTRO)}</p></div>` +
    `<div class="home__hero-actions"><a class="btn home__add" href="/share">${icon(PLUS_PATHS, 20)}Create a link</a></div></section>` +
    `<section class="home__feed" aria-labelledby="home-feed-title" aria-busy="true"><div class="home__feed-header">` +
    `<h2 id="home-feed-title">${escapeHtml(HOME_FEED_TITLE)}</h2>` +
    `<button type="button" class="btn btn--sm btn--ghost" disabled>${icon(REFRESH_PATHS, 16)}Refresh</button></div>` +
    `<div class="home__loading"><span role="status" aria-live="polite" class="spinner-wrap"><span class="spinner" aria-hidden="true"></span>` +
    `<span class="visually-hidden">${escapeHtml(FEED_LOADING)}</span></span></div></section></div>`,
);

/**
 * The login page as a visitor first sees it (renderer/src/pages/LoginPage.tsx in AuthCard, which
 * has no top bar): the card and its form, so it paints before any script runs. What is typed
 * before the app arrives moves into the app's fields (renderer/src/takeover.ts); a submit before
 * then is held by the page's loader (http/shared-page.ts), and `method="post"` keeps a password out
 * of any address even without it. The same for every visitor: made once.
 */
const LOGIN_MARKUP =
  `<div class="app"><main class="app-main" id="main"><div class="auth"><section class="auth__card" aria-labelledby="auth-title">` +
  `<a href="/" class="auth__brand" aria-label="Giftlink home"><img src="/favicon.svg" alt="" width="48" height="48" /></a>` +
  `<h1 id="auth-title" class="auth__title">${escapeHtml(LOGIN_TITLE)}</h1><p class="auth__tagline">${escapeHtml(LOGIN_TAGLINE)}</p>` +
  `<div class="auth__body"><form class="form" method="post" aria-busy="false">` +
  `<div class="field"><label for="login-email">Email</label>` +
  `<input id="login-email" class="input" type="email" name="email" autocomplete="email" inputmode="email" required /></div>` +
  `<div class="field"><label for="login-password">Password</label>` +
  `<input id="login-password" class="input" type="password" name="password" autocomplete="current-password" required minlength="${PASSWORD_MIN_LENGTH}" />` +
  `<a href="/forgot-password" class="field-hint login__forgot">Forgot password?</a></div>` +
  `<button type="submit" class="btn btn--primary btn--block">Log in</button></form></div></section>` +
  `<div class="auth__footer"><p>New here? <a href="/register">Register with an invite</a></p></div></div></main></div>`;

/** The pages whose markup is the same for every visitor, by path. */
const VISITOR_PAGES = new Map([
  ['/', HOME_MARKUP],
  ['/login', LOGIN_MARKUP],
]);

/**
 * A wishlist page's static markup: its title and first items (title, price, image), as the app
 * lists them. `canJoin`: the banner offers 'Join Giftlink', as on a link page.
 */
export function wishlistMarkup(owner: User, items: WishlistItem[], total: number, canJoin = false): string {
  const at = escapeHtml(`@${owner.username}`);
  const rows = items
    .map((item) => {
      const image = item.imageUrl ? `<img src="${escapeHtml(item.imageUrl)}" alt="" width="72" height="72" />` : '';
      return (
        `<li class="wish-row"><span class="wish-row__main"><span class="wish-row__image">${image}</span>` +
        `<span class="wish-row__text"><span class="wish-row__title">${escapeHtml(item.title)}</span>` +
        `<span class="wish-row__price">${escapeHtml(formatCents(item.priceCents))}</span></span></span></li>`
      );
    })
    .join('');
  const list = rows
    ? `<ul class="wishlist__list" aria-label="Wishlist items">${rows}</ul>`
    : `<div class="card empty-state"><h2>Nothing here yet</h2><p class="muted">${at} has not added any items yet.</p></div>`;
  return shell(
    `<div class="wishlist"><header class="wishlist__header"><div class="wishlist__heading"><div>` +
      `<p class="wishlist__eyebrow">Wishlist</p><h1>${at}'s wishlist</h1>` +
      `<p class="muted small">${total} of ${WISHLIST_MAX_ITEMS} items</p></div></div></header>${list}</div>`,
    canJoin ? owner.username : undefined,
  );
}

/** The wishlist's items on the list (not archived), in list order. */
const listedItems = (db: Database, ownerId: string) =>
  db.manager.find(WishlistItemEntity, { where: { ownerId, archivedAt: IsNull() }, order: { position: 'ASC' } });

/**
 * The preview of a page path: its card and, for an open link or a known wishlist, the page's
 * static markup; undefined for a page that has none (only link and wishlist pages do). Reads
 * committed data only; never counts a view.
 */
export async function previewFor(
  db: Database,
  publicUrl: string,
  path: string,
  invites?: Pick<Config, 'invitesPerUser' | 'inviteRefillDays'>,
): Promise<{ card: PreviewCard; markup?: string } | undefined> {
  const match = PREVIEW_PATH.exec(path);
  if (!match) return undefined;
  const kind: ShareKind = match[1] === 'link' ? 'link' : 'wishlist';
  const username = usernameIn(match[2]);
  const user = username ? await db.manager.findOneBy(UserEntity, { username }) : null;
  if (!user) return { card: genericCard(publicUrl, username ? sharePageUrl(publicUrl, kind, username) : `${publicUrl}/`) };
  const now = new Date();
  // Whether the app's banner offers 'Join Giftlink' here (GET /api/invites/join/{username} says the same).
  const joinable = async () =>
    invites ? canJoinThrough(user, refillPlan(user, await countFree(db.manager, user.id), invites, now).freeAfter) : false;
  if (kind === 'wishlist') {
    const items = await listedItems(db, user.id);
    const markup = wishlistMarkup(user, items.slice(0, MARKUP_ITEMS), items.length, await joinable());
    return { card: wishlistCard(publicUrl, user), markup };
  }
  const link = await db.manager.findOne(LinkEntity, { where: { creatorId: user.id }, order: { createdAt: 'DESC' } });
  if (!link || !isOpen(link, now)) return { card: genericCard(publicUrl, sharePageUrl(publicUrl, kind, user.username)) };
  return { card: linkCard(publicUrl, user, link), markup: linkMarkup(user, link, await joinable(), now) };
}

/** The preview card of a page path, or undefined for a page that has none (see `previewFor`). */
export async function previewCardFor(db: Database, publicUrl: string, path: string): Promise<PreviewCard | undefined> {
  return (await previewFor(db, publicUrl, path))?.card;
}

/**
 * The website's page heads for link and wishlist pages (http/web.ts), and a visitor's home and
 * login pages' markup. A database failure still answers the page, with the generic card, so the app opens and
 * shows its own error.
 */
export function linkPreviews(deps: Pick<Deps, 'db' | 'config' | 'log'>): PageHead {
  const { publicUrl } = deps.config;
  return async (path, visitor) => {
    // A visitor's home and login pages paint before any script runs (a signed-in user's home greets
    // them by name, and the app sends a signed-in user on from /login).
    const visitorPage = VISITOR_PAGES.get(path);
    if (visitorPage) return visitor ? { root: visitorPage } : undefined;
    try {
      const preview = await previewFor(deps.db, publicUrl, path, deps.config);
      return preview && { head: previewTags(preview.card), root: preview.markup };
    } catch (err) {
      deps.log.warn({ err, path }, 'link preview failed: answering the generic card');
      return { head: previewTags(genericCard(publicUrl, `${publicUrl}/`)) };
    }
  };
}
