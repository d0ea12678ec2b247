import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentNotification } from './presenter.js';
import { listNotifications, markAllRead } from './service.js';

/** A user's own notifications. They are made by the server only, never by a client. */
export function notificationRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/notifications/:userId', [authenticate], async (ctx, { params }) => {
    const user = actingUser(ctx, { userId: params.userId });
    ctx.body = (await listNotifications(deps.db, user.id)).map(presentNotification);
  });

  serve(router, 'PUT /api/read-notifications/:userId', [authenticate], async (ctx, { params }) => {
    const user = actingUser(ctx, { userId: params.userId });
    ctx.body = { markedAsRead: await markAllRead(deps, user.id) };
  });

  return router;
}
