import Router from '@koa/router';
import { PUSH_SUBSCRIPTION_NOT_FOUND } from '../../contract/texts.js';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentDevice, subscribe, subscriptionsOf, unsubscribe } from './subscriptions.js';
import { resolveVapid } from './vapid.js';

/** Web Push: the server's public key, and the signed-in user's devices (subscribe, list, remove). */
export function pushRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const { publicKey } = resolveVapid(deps.config);

  serve(router, 'GET /api/push/public-key', (ctx) => {
    ctx.body = { publicKey };
  });

  serve(router, 'GET /api/push/subscriptions', [authenticate], async (ctx) => {
    ctx.body = { devices: (await subscriptionsOf(deps.db, currentUser(ctx).id)).map(presentDevice) };
  });

  serve(router, 'POST /api/push/subscriptions', [authenticate], async (ctx, { body }) => {
    const userAgent = ctx.get('user-agent') || null;
    ctx.status = 201;
    const session = { userId: currentUser(ctx).id, sessionId: ctx.state.session!.id };
    ctx.body = await subscribe(deps.db, session, body, userAgent, deps.config.pushAllowPrivateEndpoints);
  });

  serve(router, 'DELETE /api/push/subscriptions/:id', [authenticate], async (ctx, { params }) => {
    if (!(await unsubscribe(deps.db, currentUser(ctx).id, params.id))) throw notFound(PUSH_SUBSCRIPTION_NOT_FOUND);
    ctx.status = 204;
  });

  return router;
}
