import type { Config } from '../config.js';
import type { Middleware } from './context.js';
import { INBOX_CURSOR_HEADER } from '../../contract/limits.js';

/** What a cross-origin caller (the desktop app) may send: the token header, money keys, its version. */
export const CORS_ALLOWED_HEADERS = ['Accept', 'Content-Type', 'Idempotency-Key', 'x-auth-token', 'x-giftlink-version', 'x-request-id'];
/** Response headers the desktop app reads: a new token after a password change, limits, file names, an inbox page's cursor. */
export const CORS_EXPOSED_HEADERS = [
  'Retry-After',
  'Content-Disposition',
  'ETag',
  'Allow',
  'x-auth-token',
  'x-request-id',
  INBOX_CURSOR_HEADER,
];
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * CORS for the origins in CORS_ORIGINS (the desktop app's `app://giftlink`), and for them alone.
 * No credentials: those origins authenticate with the `x-auth-token` header (never the cookie),
 * so `Access-Control-Allow-Credentials` is never sent and a cookie never rides along. Any other
 * origin gets no CORS headers, so browsers keep refusing it; same-origin requests (the website)
 * are untouched. Preflights from an allowed origin are answered here, before rate limits and auth.
 */
export function cors(config: Pick<Config, 'corsOrigins'>): Middleware {
  const allowed = new Set(config.corsOrigins);
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    if (origin && allowed.has(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
        ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        ctx.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
        ctx.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
        ctx.status = 204;
        return;
      }
      ctx.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    }
    await next();
    // The app shows pictures with <img> from its own origin, and an <img> request carries no
    // Origin: our images (public pictures, like the pages showing them) may be embedded elsewhere.
    if (allowed.size > 0 && ctx.response.is('image/*')) ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  };
}
