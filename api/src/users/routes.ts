import Router from '@koa/router';
import { setSessionCookie, userAgentOf } from '../auth/session.js';
import type { Deps } from '../deps.js';
import { assertSelf, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { presentPrivateUser, presentUserFor } from './presenter.js';
import { UpdateUserBody, UserIdParams, UserLookupQuery, UsernameParams } from './schemas.js';
import { findUser, updateUser } from './service.js';

export function userRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/users' });

  router.get(
    '/',
    authenticate,
    validate({ query: UserLookupQuery }, async (ctx, { query }) => {
      const user = await findUser(deps.db, query);
      ctx.body = presentUserFor(ctx.state.user, user);
    }),
  );

  router.get(
    '/getId/:username',
    authenticate,
    validate({ params: UsernameParams }, async (ctx, { params }) => {
      const user = await findUser(deps.db, { username: params.username });
      ctx.body = { userId: user.id };
    }),
  );

  router.patch(
    '/:id',
    authenticate,
    validate({ params: UserIdParams, body: UpdateUserBody }, async (ctx, { params, body }) => {
      assertSelf(ctx, params.id);
      assertSelf(ctx, body.userId);
      const newSession = { ttlHours: deps.config.tokenTtlHours, userAgent: userAgentOf(ctx) };
      const { user, session } = await updateUser(deps.db, currentUser(ctx).id, body, newSession);
      if (session) {
        // The password changed: every earlier session is over, sockets too; this client goes on with a new one.
        ctx.set('x-auth-token', await setSessionCookie(deps, ctx, session));
        await deps.realtime.endSessions(user.id, (id) => id !== session.id);
      }
      ctx.body = presentPrivateUser(user);
    }),
  );

  return router;
}
