import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentMessage } from './presenter.js';
import type { ReturnGiftResponse } from '../../contract/conversations.js';
import { centsToDollars } from '../../contract/money.js';
import { returnGift } from '../commands/return-gift.js';
import type { Answer } from '../http/idempotency.js';
import { moneyRoute } from '../http/unit-of-work.js';
import { INBOX_CURSOR_HEADER } from '../../contract/limits.js';
import { findConversation, listMessages, sendMessage, unreadMessageCount } from './service.js';
import { InboxPages } from './inbox-pages.js';

/** Conversations and messages (members only). Sending goes through the same service as the socket's `sendMessage`. */
export function conversationRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const inbox = new InboxPages(deps.db);

  serve(router, 'GET /messages/unread', [authenticate], async (ctx, { query }) => {
    const user = actingUser(ctx, { userId: query.userId });
    ctx.body = { unreadCount: await unreadMessageCount(deps.db, user.id) };
  });

  serve(router, 'POST /messages/send', [authenticate], async (ctx, { body }) => {
    const user = currentUser(ctx);
    const { conversation, message } = await sendMessage(
      { db: deps.db, realtime: deps.realtime, limits: deps.limits, messagesPerMinute: deps.config.messageRateLimit },
      user.id,
      body,
    );
    ctx.status = 201;
    ctx.body = { _id: message.id, message: presentMessage(conversation, user.id, message) };
  });

  serve(router, 'GET /conversations/find/:conversationId', [authenticate], async (ctx, { params }) => {
    ctx.body = await findConversation(deps.db, currentUser(ctx).id, params.conversationId);
  });

  serve(router, 'GET /conversations/:userId', [authenticate], async (ctx, { params, query }) => {
    const user = actingUser(ctx, { userId: params.userId });
    const page = await inbox.page(user.id, query);
    if (page.nextCursor) ctx.set(INBOX_CURSOR_HEADER, page.nextCursor);
    ctx.type = 'application/json';
    ctx.body = page.body;
  });

  serve(router, 'GET /messages/:conversationId', [authenticate], async (ctx, { params, query }) => {
    ctx.body = await listMessages(deps, currentUser(ctx).id, params.conversationId, query.page);
  });

  serve(router, 'POST /conversations/:conversationId/gifts/:messageId/return', [authenticate], async (ctx, { params }) => {
    const { id: userId } = currentUser(ctx);
    await moneyRoute(
      deps,
      ctx,
      { userId, scope: 'gifts.return', input: params },
      (uow) => returnGift(uow, { userId, ...params }),
      (returned): Answer<ReturnGiftResponse> => ({ status: 200, body: { returned: centsToDollars(returned.amountCents) } }),
    );
  });

  return router;
}
