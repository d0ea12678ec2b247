import Router from '@koa/router';
import { maySeePresence } from '../conversations/service.js';
import type { Deps } from '../deps.js';
import { forbidden } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { currentUser } from '../http/auth.js';
import { serve } from '../http/route.js';

/**
 * Presence: only about someone the asker talks with under their name (`canSeePresence`,
 * conversations/policy.ts); anyone else, including the anonymous giver of a conversation, is a 403
 * that says nothing about them. Then 200 {online: true} only when both have chosen to show their
 * presence (`showPresence`) and the target is online by the coarse rule (`shownOnline`,
 * presence.ts); else 204, whatever their sockets. About oneself the answer is exact.
 */
export function realtimeRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/onlineusers/:userId', [authenticate], async (ctx, { params }) => {
    const asker = currentUser(ctx);
    if (!(await maySeePresence(deps.db, asker.id, params.userId)))
      throw forbidden('You can only see whether people you talk with are online.');
    const { presence } = deps.realtime;
    let online: boolean;
    if (asker.id === params.userId) online = await presence.isOnline(asker.id);
    else online = asker.showPresence && (await showsPresence(deps, params.userId)) && (await presence.shownOnline(params.userId));
    if (online) ctx.body = { online: true };
    else ctx.status = 204;
  });

  return router;
}

/** The target's own choice, read by primary key alone. */
async function showsPresence(deps: Deps, userId: string): Promise<boolean> {
  const user = await deps.db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, showPresence: true } });
  return user?.showPresence === true;
}
