import { forbidden, unauthorized } from '../errors.js';
import { authenticateToken } from '../auth/session.js';
import { credentialsOf, isSameOrigin } from '../auth/credentials.js';
import type { Deps } from '../deps.js';
import type { User } from '../users/entity.js';
import { canActAs, type NamedActor } from '../users/policy.js';
import type { AppContext, Middleware } from './context.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie write from our own pages: browsers send Origin with every write, so one naming no origin is refused too. */
const fromOurPages = (ctx: AppContext): boolean => !!(ctx.headers.origin || ctx.headers.referer) && isSameOrigin(ctx.headers, ctx.host);

/**
 * Identifies the user of every request (mounted once in app.ts, before the body parser): the
 * x-auth-token header, else the session cookie, through the same `authenticateToken` as the
 * socket handshake. A cookie sent with a write from another origin, or naming none, identifies no one.
 */
export function identify(deps: Deps): Middleware {
  return async (ctx, next) => {
    const found = credentialsOf(ctx.headers);
    if (found) {
      if (found.via === 'cookie' && !SAFE_METHODS.has(ctx.method) && !fromOurPages(ctx)) ctx.state.crossSite = true;
      else {
        const auth = await authenticateToken(deps, found.token);
        if (auth) {
          ctx.state.user = auth.user;
          ctx.state.session = auth.session;
          ctx.state.authVia = found.via === 'cookie' ? 'cookie' : 'header';
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
export function currentUser(ctx: AppContext): User {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user;
}

/**
 * The authenticated user, acting as themselves: identity comes from the token, and a path, query
 * or body that names someone else as the one acting (`canActAs`, users/policy.ts) is a 403.
 */
export function actingUser(ctx: AppContext, ...named: NamedActor[]): User {
  const user = currentUser(ctx);
  if (!named.every((n) => canActAs(user, n))) throw forbidden();
  return user;
}
