import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { credentialsOf } from './credentials.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState, Middleware } from '../http/context.js';
import { perAddress } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import type { User } from '../users/entity.js';
import { presentPrivateUser } from '../users/presenter.js';
import type { ResetAnswer, SessionResponse } from '../../contract/auth.js';
import { PASSWORD_RESET_DONE, RESET_LINK_SENT } from '../../contract/texts.js';
import { spend } from '../limits/rate-limits.js';
import { RESET_EMAILS_PER_ADDRESS, RESET_EMAIL_WINDOW_SECONDS, resetPassword, sendResetLink } from './reset.js';
import { login, register } from './service.js';
import { endSession, startSession } from './session.js';
import { wishlistImages } from '../wishlists/service.js';
import { balanceHolds } from '../wallet/service.js';

export function authRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const { authRateLimit, authRateWindowSeconds } = deps.config;

  const session = async (ctx: Parameters<typeof startSession>[1], user: User): Promise<SessionResponse> => ({
    token: await startSession(deps, ctx, user),
    user: presentPrivateUser(user),
    wishlistItems: await wishlistImages(deps.db, user.id),
  });

  serve(
    router,
    'POST /api/auth/register',
    [perAddress(deps.limits, 'register', authRateLimit, authRateWindowSeconds)],
    async (ctx, { body }) => {
      const user = await register(deps, body);
      ctx.status = 201;
      ctx.body = await session(ctx, user);
    },
  );

  serve(router, 'POST /api/auth/login', [perAddress(deps.limits, 'login', authRateLimit, authRateWindowSeconds)], async (ctx, { body }) => {
    const user = await login(deps, body);
    ctx.body = await session(ctx, user);
  });

  // Password reset by email (auth/reset.ts). The answer never says whether the address has an
  // account: it goes out before the lookup, and both limits count any address alike.
  const resetEmails = deps.limits.limiter('forgot-password.email', RESET_EMAILS_PER_ADDRESS, RESET_EMAIL_WINDOW_SECONDS);
  serve(
    router,
    'POST /api/auth/forgot-password',
    [perAddress(deps.limits, 'forgot-password', authRateLimit, authRateWindowSeconds)],
    async (ctx, { body }) => {
      await spend(resetEmails, body.email);
      const answer: ResetAnswer = { message: RESET_LINK_SENT };
      ctx.body = answer;
      // The lookup and the email start once the answer has gone out, whatever the address.
      ctx.res.once('close', () => void sendResetLink(deps, body.email));
    },
  );

  serve(
    router,
    'POST /api/auth/reset-password',
    [perAddress(deps.limits, 'reset-password', authRateLimit, authRateWindowSeconds)],
    async (ctx, { body }) => {
      await resetPassword(deps, body.token, body.password);
      const answer: ResetAnswer = { message: PASSWORD_RESET_DONE };
      ctx.body = answer;
    },
  );

  // A visitor (no token, no session cookie) is no error: 204, nobody signed in, so a logged-out
  // page's start-up session check logs nothing. Credentials that no longer hold are still a 401.
  const visitorAnswer: Middleware = async (ctx, next) => {
    if (credentialsOf(ctx.headers)) return next();
    ctx.status = 204;
  };
  serve(router, 'GET /api/auth/me', [visitorAnswer, authenticate], async (ctx) => {
    const user = currentUser(ctx);
    ctx.body = { ...presentPrivateUser(user), ...(await balanceHolds(deps.db, user.id)) };
  });

  // Ends the session the request names (if any) on the server and its sockets; always 204.
  serve(router, 'POST /api/auth/logout', async (ctx) => {
    await endSession(deps, ctx);
    ctx.status = 204;
  });

  return router;
}
