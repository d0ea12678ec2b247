import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { presentInvite } from './presenter.js';
import { findAvailable, listInvites } from './service.js';

const InviteParams = z.object({ inviteId: z.string().min(1).max(64) });
const OwnerParams = z.object({ userId: z.string().min(1).max(64) });

export function inviteRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/invites' });

  // Public: a non-empty list means the invite can still be used.
  router.get(
    '/accept/:inviteId',
    validate({ params: InviteParams }, async (ctx, { params }) => {
      const invite = await findAvailable(deps.db, params.inviteId);
      ctx.body = invite ? [presentInvite(deps.config, invite)] : [];
    }),
  );

  router.get(
    '/:userId',
    authenticate,
    validate({ params: OwnerParams }, async (ctx, { params }) => {
      const { id: userId } = actingUser(ctx, { userId: params.userId });
      const invites = await listInvites(deps.db, userId);
      ctx.body = invites.map((i) => presentInvite(deps.config, i));
    }),
  );

  return router;
}
