import { forbidden, unauthorized } from '../errors.js';
import { SESSION_COOKIE } from '../auth/tokens.js';
import { UserEntity } from '../users/entity.js';
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

export function authMiddleware({ db, tokens }: Deps) {
  async function identify(ctx: AppContext): Promise<void> {
    const header = ctx.get('x-auth-token');
    const cookie = header ? undefined : ctx.cookies.get(SESSION_COOKIE);
    const token = header || cookie;
    if (!token) return;
    const claims = await tokens.verify(token);
    if (!claims) return;
    const user = await db.manager.findOneBy(UserEntity, { id: claims.userId });
    if (!user || user.tokenVersion !== claims.version) return;
    ctx.state.user = user;
    ctx.state.authVia = header ? 'header' : 'cookie';
  }

  /** Requires a logged-in user (x-auth-token header or the session cookie). */
  const authenticate: Middleware = async (ctx, next) => {
    await identify(ctx);
    if (!ctx.state.user) throw unauthorized();
    if (ctx.state.authVia === 'cookie' && !SAFE_METHODS.has(ctx.method) && !isSameOrigin(ctx))
      throw forbidden('Cross-site request refused.');
    await next();
  };

  /** Identifies the user when there is one; visitors pass through. */
  const optionalAuth: Middleware = async (ctx, next) => {
    await identify(ctx);
    if (ctx.state.authVia === 'cookie' && !SAFE_METHODS.has(ctx.method) && !isSameOrigin(ctx))
      ctx.state.user = undefined;
    await next();
  };

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
