import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { presentPrivateUser } from '../users/presenter.js';
import { JoinParams, JoinSettingBody } from '../../contract/invites.js';
import { inviteSummary, joinAvailability, listInvitesRefilled, setLetVisitorsJoin } from './join.js';
import { presentInvite, presentOwnInvite } from './presenter.js';
import { findAvailable, usedByNames } from './service.js';

const InviteParams = z.object({ inviteId: z.string().min(1).max(64) });
const OwnerParams = z.object({ userId: z.string().min(1).max(64) });

/** `/invites/…` (the spec's calls) and `/api/invites/…` (joining through a link, refill, the setting). */
export function inviteRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  // Public: a non-empty list means the invite can still be used.
  router.get(
    '/invites/accept/:inviteId',
    validate({ params: InviteParams }, async (ctx, { params }) => {
      const invite = await findAvailable(deps.db, params.inviteId);
      ctx.body = invite ? [presentInvite(deps.config, invite)] : [];
    }),
  );

  router.get(
    '/invites/:userId',
    authenticate,
    validate({ params: OwnerParams }, async (ctx, { params }) => {
      const { id: userId } = actingUser(ctx, { userId: params.userId });
      const invites = await listInvitesRefilled(deps, userId);
      const usernames = await usedByNames(deps.db, invites);
      ctx.body = invites.map((i) => presentOwnInvite(deps.config, i, usernames));
    }),
  );

  // Public: whether a visitor of `username`'s link can register with one of their invites.
  router.get(
    '/api/invites/join/:username',
    validate({ params: JoinParams }, async (ctx, { params }) => {
      ctx.body = await joinAvailability(deps, params.username);
    }),
  );

  router.get('/api/invites/summary', authenticate, async (ctx) => {
    ctx.body = await inviteSummary(deps, currentUser(ctx).id);
  });

  router.put(
    '/api/invites/settings',
    authenticate,
    validate({ body: JoinSettingBody }, async (ctx, { body }) => {
      ctx.body = presentPrivateUser(await setLetVisitorsJoin(deps, currentUser(ctx).id, body.letVisitorsJoin));
    }),
  );

  return router;
}
