import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { perAddress } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import type { User } from '../users/entity.js';
import { presentPrivateUser } from '../users/presenter.js';
import { LoginBody, RegisterBody, type SessionResponse } from './schemas.js';
import { login, register } from './service.js';
import { endSession, startSession } from './session.js';
import { wishlistImages } from '../wishlists/service.js';

export function authRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth' });
  const { authRateLimit, authRateWindowSeconds } = deps.config;

  const session = async (ctx: Parameters<typeof startSession>[1], user: User): Promise<SessionResponse> => ({
    token: await startSession(deps, ctx, user),
    user: presentPrivateUser(user),
    wishlistItems: await wishlistImages(deps.db, user.id),
  });

  router.post(
    '/register',
    perAddress(deps.limits, 'register', authRateLimit, authRateWindowSeconds),
    validate({ body: RegisterBody }, async (ctx, { body }) => {
      const user = await register(deps, body);
      ctx.status = 201;
      ctx.body = await session(ctx, user);
    }),
  );

  router.post(
    '/login',
    perAddress(deps.limits, 'login', authRateLimit, authRateWindowSeconds),
    validate({ body: LoginBody }, async (ctx, { body }) => {
      const user = await login(deps, body);
      ctx.body = await session(ctx, user);
    }),
  );

  router.get('/me', authenticate, async (ctx) => {
    ctx.body = presentPrivateUser(currentUser(ctx));
  });

  // Ends the session the request names (if any) on the server and its sockets; always 204.
  router.post('/logout', async (ctx) => {
    await endSession(deps, ctx);
    ctx.status = 204;
  });

  return router;
}
