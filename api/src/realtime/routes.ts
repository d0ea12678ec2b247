import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';

const UserIdParams = z.object({ userId: z.string().min(1).max(64) });

/** Presence: 200 {online: true} while the user has a live socket on any API process, else 204. */
export function realtimeRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get(
    '/onlineusers/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      if (await deps.realtime.presence.isOnline(params.userId)) ctx.body = { online: true };
      else ctx.status = 204;
    }),
  );

  return router;
}
