import Router from '@koa/router';
import { z } from 'zod';
import { maySeePresence } from '../conversations/service.js';
import type { Deps } from '../deps.js';
import { forbidden } from '../errors.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { currentUser } from '../http/auth.js';
import { validate } from '../http/validate.js';

const UserIdParams = z.object({ userId: z.string().min(1).max(64) });

/**
 * Presence: 200 {online: true} while the user has a live socket on any API process, else 204 —
 * only for someone the asker talks with under their name (`canSeePresence`, conversations/policy.ts); anyone else,
 * including the anonymous giver of a conversation, is a 403 that says nothing about them.
 */
export function realtimeRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get(
    '/onlineusers/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      if (!(await maySeePresence(deps.db, currentUser(ctx).id, params.userId)))
        throw forbidden('You can only see whether people you talk with are online.');
      if (await deps.realtime.presence.isOnline(params.userId)) ctx.body = { online: true };
      else ctx.status = 204;
    }),
  );

  return router;
}
