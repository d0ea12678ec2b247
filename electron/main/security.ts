// The desktop's security rules (Actual's model): one `web-contents-created` handler hardens every
// web contents the app ever makes: no new windows (http(s) links go to the system browser), no
// navigation, redirect or frame navigation away from app://giftlink, no <webview>, and every
// permission refused except notifications. The pure rules are tested in Node; the handler is
// tested with a fake webContents.
import type { App, Shell, WebContents } from 'electron';
import { EBAY_IMAGE_ORIGINS } from '../../api/contract/image-origins.js';
import type { ApiOrigin } from './api-origin.js';

/** Links the app may hand to the system browser: http(s) only, never file:, javascript: or custom schemes. */
export function isAllowedExternal(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The window may only navigate within the site it was opened on (scheme and host, port included).
 * Compared by parts, not `origin`: a custom scheme's origin is the string "null" for every URL.
 */
export function isAllowedNavigation(site: string, url: string): boolean {
  try {
    const allowed = new URL(site);
    const target = new URL(url);
    return allowed.host !== '' && target.protocol === allowed.protocol && target.host === allowed.host;
  } catch {
    return false;
  }
}

/** The only permission a page may get. */
export function isAllowedPermission(permission: string): boolean {
  return permission === 'notifications';
}

/**
 * Stripe Elements (the subscription page's card form when the API runs PAYMENTS=stripe, loaded
 * only on that page): its script, frames and API, as Stripe's CSP guide lists them.
 */
const STRIPE = {
  script: 'https://js.stripe.com https://*.js.stripe.com',
  frame: 'https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
  img: 'https://*.stripe.com',
};

/**
 * The Content-Security-Policy of the app:// pages: our files, connections to the API (and Stripe
 * Elements) only; pictures also from eBay's image hosts (`CATALOG=ebay` items).
 */
export function appContentSecurityPolicy(api: ApiOrigin): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${STRIPE.script}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' ${api.http} blob: data: ${STRIPE.img} ${EBAY_IMAGE_ORIGINS.join(' ')}`,
    "font-src 'self' data:",
    `connect-src 'self' ${api.http} ${api.ws} ${STRIPE.connect}`,
    `frame-src ${STRIPE.frame}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface SecurityDeps {
  shell: Pick<Shell, 'openExternal'>;
  /** `app://giftlink`: where pages may navigate. */
  appUrl: string;
  log?: (message: string) => void;
}

/** Hardens one web contents; `installSecurity` runs it for every one created. */
export function hardenWebContents(contents: WebContents, deps: SecurityDeps): void {
  const log = deps.log ?? (() => {});
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void deps.shell.openExternal(url);
    else log(`refused to open ${url}`);
    return { action: 'deny' };
  });
  const guard = (kind: string) => (event: { preventDefault(): void; url: string }) => {
    if (isAllowedNavigation(deps.appUrl, event.url)) return;
    event.preventDefault();
    log(`blocked ${kind} to ${event.url}`);
  };
  contents.on('will-navigate', guard('navigation'));
  contents.on('will-redirect', guard('redirect'));
  contents.on('will-frame-navigate', guard('frame navigation'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('blocked a <webview>');
  });
  contents.session.setPermissionRequestHandler((_contents, permission, callback) => callback(isAllowedPermission(permission)));
  contents.session.setPermissionCheckHandler((_contents, permission) => isAllowedPermission(permission));
}

/** The one handler for every web contents the app creates (windows, frames, devtools). */
export function installSecurity(app: Pick<App, 'on'>, deps: SecurityDeps): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, deps));
}
