// Deep links: giftlink://link/{username}, giftlink://wishlist/{username} and https pages of the
// public site open inside the app; any other http(s) URL goes to the system browser; anything else
// is ignored. Pure, so the table test covers it without Electron.
import { USERNAME_MAX_LENGTH } from '../../api/contract/limits.js';

export const DEEP_LINK_SCHEME = 'giftlink';

export type DeepLink = { kind: 'route'; route: string } | { kind: 'external'; url: string } | { kind: 'ignore' };

const USERNAME = new RegExp(`^[A-Za-z0-9_.-]{1,${USERNAME_MAX_LENGTH}}$`);
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** In-app pages a link may open: [first segment, how many more segments, each a name or id]. */
const PAGES: Record<string, { rest: number[]; check: RegExp }> = {
  link: { rest: [1], check: USERNAME },
  wishlist: { rest: [1], check: USERNAME },
  profile: { rest: [1], check: USERNAME },
  messages: { rest: [1], check: ID },
  invite: { rest: [0, 1], check: ID },
  register: { rest: [0, 1], check: ID },
  notifications: { rest: [0], check: ID },
  conversations: { rest: [0], check: ID },
};

/** `['link', 'ana']` → `/link/ana` when it is one of the app's pages, else null. */
function routeOf(segments: string[]): string | null {
  const [page, ...rest] = segments;
  const rule = page === undefined ? undefined : PAGES[page];
  if (!rule || !rule.rest.includes(rest.length)) return null;
  if (!rest.every((segment) => rule.check.test(segment) && segment !== '.' && segment !== '..')) return null;
  return `/${[page, ...rest].map(encodeURIComponent).join('/')}`;
}

function segmentsOf(pathname: string): string[] | null {
  try {
    return pathname
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/** Maps a URL handed to the app (protocol launch, open-url, a pasted site link) to what to do with it. */
export function parseDeepLink(raw: string, siteUrl: string): DeepLink {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { kind: 'ignore' };
  }
  if (url.protocol === `${DEEP_LINK_SCHEME}:`) {
    // giftlink://link/ana: the host is the page, the path its argument.
    const segments = segmentsOf(`/${url.host}${url.pathname}`);
    const route = segments && routeOf(segments);
    return route && (segments[0] === 'link' || segments[0] === 'wishlist') ? { kind: 'route', route } : { kind: 'ignore' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'ignore' };
  let site: URL | null = null;
  try {
    site = new URL(siteUrl);
  } catch {
    site = null;
  }
  // Same scheme as the site: https for a release; an http development site maps its own links too.
  if (site && url.protocol === site.protocol && url.host === site.host && !url.username && !url.password) {
    const base = site.pathname.replace(/\/+$/, '');
    if (url.pathname === base || url.pathname.startsWith(`${base}/`)) {
      const segments = segmentsOf(url.pathname.slice(base.length));
      const route = segments && routeOf(segments);
      if (route) return { kind: 'route', route: `${route}${url.search}` };
    }
  }
  return { kind: 'external', url: url.href };
}

/** The deep link among a launch's arguments (Windows/Linux pass it on the command line). */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`)) ?? null;
}
