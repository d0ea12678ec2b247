import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { presentNotification } from './presenter.js';
import { listNotifications, markAllRead } from './service.js';

const UserIdParams = z.object({ userId: z.string().min(1).max(64) });

/** A user's own notifications. They are made by the server only, never by a client. */
export function notificationRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get(
    '/notifications/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      const user = actingUser(ctx, { userId: params.userId });
      ctx.body = (await listNotifications(deps.db, user.id)).map(presentNotification);
    }),
  );

  router.put(
    '/read-notifications/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      const user = actingUser(ctx, { userId: params.userId });
      ctx.body = { markedAsRead: await markAllRead(deps, user.id) };
    }),
  );

  return router;
}
