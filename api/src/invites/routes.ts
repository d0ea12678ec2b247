import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentPrivateUser } from '../users/presenter.js';
import { inviteSummary, joinAvailability, listInvitesRefilled, setLetVisitorsJoin } from './join.js';
import { presentInvite, presentOwnInvite } from './presenter.js';
import { findAvailable, usedByNames } from './service.js';

/** `/invites/…` (the spec's calls) and `/api/invites/…` (joining through a link, refill, the setting). */
export function inviteRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  // Public: a non-empty list means the invite can still be used.
  serve(router, 'GET /invites/accept/:inviteId', async (ctx, { params }) => {
    const invite = await findAvailable(deps.db, params.inviteId);
    ctx.body = invite ? [presentInvite(deps.config, invite)] : [];
  });

  serve(router, 'GET /invites/:userId', [authenticate], async (ctx, { params }) => {
    const { id: userId } = actingUser(ctx, { userId: params.userId });
    const invites = await listInvitesRefilled(deps, userId);
    const usernames = await usedByNames(deps.db, invites);
    ctx.body = invites.map((i) => presentOwnInvite(deps.config, i, usernames));
  });

  // Public: whether a visitor of `username`'s link can register with one of their invites.
  serve(router, 'GET /api/invites/join/:username', async (ctx, { params }) => {
    ctx.body = await joinAvailability(deps, params.username);
  });

  serve(router, 'GET /api/invites/summary', [authenticate], async (ctx) => {
    ctx.body = await inviteSummary(deps, currentUser(ctx).id);
  });

  serve(router, 'PUT /api/invites/settings', [authenticate], async (ctx, { body }) => {
    ctx.body = presentPrivateUser(await setLetVisitorsJoin(deps, currentUser(ctx).id, body.letVisitorsJoin));
  });

  return router;
}
