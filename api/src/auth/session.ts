import type { Deps } from '../deps.js';
import type { AppContext } from '../http/context.js';
import type { User } from '../users/entity.js';
import { SESSION_COOKIE } from './tokens.js';

/** Signs a token for the user and sets it as the httpOnly session cookie. */
export async function startSession(deps: Deps, ctx: AppContext, user: User): Promise<string> {
  const token = await deps.tokens.sign({ userId: user.id, version: user.tokenVersion });
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.cookieSecure,
    maxAge: deps.config.tokenTtlHours * 3600 * 1000,
    path: '/',
    overwrite: true,
  });
  return token;
}

export function endSession(deps: Deps, ctx: AppContext): void {
  ctx.cookies.set(SESSION_COOKIE, null, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.cookieSecure,
    path: '/',
    overwrite: true,
  });
}
