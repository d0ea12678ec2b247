import { forbidden, unauthorized } from '../errors.js';
import { authenticateToken } from '../auth/session.js';
import { SESSION_COOKIE } from '../auth/tokens.js';
import type { Deps } from '../deps.js';
import type { AppContext, Middleware } from './context.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cookie-authenticated writes must come from our own origin. */
function isSameOrigin(ctx: AppContext): boolean {
  const origin = ctx.get('origin') || ctx.get('referer');
  if (!origin) return true; // not a browser request
  try {
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}

/**
 * Identifies the user of every request (mounted once in app.ts, before the body parser): the
 * x-auth-token header, else the session cookie, through the same `authenticateToken` as the
 * socket handshake. A cookie sent with a write from another origin identifies no one.
 */
export function identify(deps: Deps): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('x-auth-token');
    const token = header || ctx.cookies.get(SESSION_COOKIE);
    if (token) {
      const via = header ? 'header' : 'cookie';
      if (via === 'cookie' && !SAFE_METHODS.has(ctx.method) && !isSameOrigin(ctx)) ctx.state.crossSite = true;
      else {
        const found = await authenticateToken(deps, token);
        if (found) {
          ctx.state.user = found.user;
          ctx.state.session = found.session;
          ctx.state.authVia = via;
        }
      }
    }
    await next();
  };
}

/** Per-route requirements on the identity `identify` found. */
export function authMiddleware() {
  /** Requires a logged-in user (x-auth-token header or the session cookie, from our own origin for writes). */
  const authenticate: Middleware = async (ctx, next) => {
    if (!ctx.state.user) throw ctx.state.crossSite ? forbidden('Cross-site request refused.') : unauthorized();
    await next();
  };

  /** Visitors pass through; `ctx.state.user` is the user when there is one. */
  const optionalAuth: Middleware = (_ctx, next) => next();

  return { authenticate, optionalAuth };
}

export type AuthMiddleware = ReturnType<typeof authMiddleware>;

/** The authenticated user; use after `authenticate`. */
export function currentUser(ctx: AppContext) {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user;
}

/** Identity comes from the token: a body or path naming someone else is refused. */
export function assertSelf(ctx: AppContext, userId: string | undefined): void {
  if (userId !== undefined && userId !== currentUser(ctx).id) throw forbidden();
}
