import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { assertSelf, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { NotificationEntity } from './entity.js';
import { presentNotification } from './presenter.js';

const UserIdParams = z.object({ userId: z.string().min(1).max(64) });

/** A user's own notifications. They are made by the server only, never by a client. */
export function notificationRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get(
    '/notifications/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      assertSelf(ctx, params.userId);
      const rows = await deps.db.manager.find(NotificationEntity, {
        where: { receiverId: params.userId },
        order: { createdAt: 'DESC' },
        take: 200,
      });
      ctx.body = rows.map(presentNotification);
    }),
  );

  router.put(
    '/read-notifications/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      assertSelf(ctx, params.userId);
      const result = await deps.db.transaction((em) =>
        em.update(NotificationEntity, { receiverId: params.userId, read: false }, { read: true }),
      );
      const markedAsRead = result.affected ?? 0;
      // Every tab of the user lowers its Notifications badge.
      if (markedAsRead > 0) deps.realtime.publish([{ type: 'unread', userId: params.userId }]);
      ctx.body = { markedAsRead };
    }),
  );

  return router;
}
