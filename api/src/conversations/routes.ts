import Router from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { assertSelf, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { findConversation, listConversations, listMessages, unreadMessageCount } from './service.js';

const UserIdParams = z.object({ userId: z.string().min(1).max(64) });
const ConversationParams = z.object({ conversationId: z.string().min(1).max(64) });
const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
const UnreadQuery = z.object({ userId: z.string().max(64).optional() });

/** Reading conversations and messages (members only). Sending and live delivery: the messaging issue. */
export function conversationRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  router.get(
    '/messages/unread',
    authenticate,
    validate({ query: UnreadQuery }, async (ctx, { query }) => {
      assertSelf(ctx, query.userId);
      ctx.body = { unreadCount: await unreadMessageCount(deps.db, currentUser(ctx).id) };
    }),
  );

  router.get(
    '/conversations/find/:conversationId',
    authenticate,
    validate({ params: ConversationParams }, async (ctx, { params }) => {
      ctx.body = await findConversation(deps.db, currentUser(ctx).id, params.conversationId);
    }),
  );

  router.get(
    '/conversations/:userId',
    authenticate,
    validate({ params: UserIdParams }, async (ctx, { params }) => {
      assertSelf(ctx, params.userId);
      ctx.body = await listConversations(deps.db, params.userId);
    }),
  );

  router.get(
    '/messages/:conversationId',
    authenticate,
    validate({ params: ConversationParams, query: PageQuery }, async (ctx, { params, query }) => {
      ctx.body = await listMessages(deps.db, currentUser(ctx).id, params.conversationId, query.page);
    }),
  );

  return router;
}
