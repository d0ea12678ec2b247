import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import type { BlockResponse } from '../../contract/blocks.js';
import { blockFromConversation, listBlocks, unblock } from './service.js';

/** Blocks: the signed-in user's own, made from one of their conversations; identity from the session only. */
export function blockRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/blocks', [authenticate], async (ctx) => {
    ctx.body = await listBlocks(deps.db, currentUser(ctx).id);
  });

  serve(router, 'POST /api/blocks', [authenticate], async (ctx, { body }) => {
    const { created, block } = await blockFromConversation(deps.db, currentUser(ctx).id, body.conversationId);
    ctx.status = created ? 201 : 200;
    ctx.body = { block } satisfies BlockResponse;
  });

  serve(router, 'DELETE /api/blocks/:id', [authenticate], async (ctx, { params }) => {
    await unblock(deps.db, currentUser(ctx).id, params.id);
    ctx.status = 204;
  });

  return router;
}
