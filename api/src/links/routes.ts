import Router from '@koa/router';
import { withCardHold } from '../wallet/card-hold.js';
import { isbot } from 'isbot';
import { visitorDevice, visitorSource } from '../../contract/analytics.js';
import type { Deps } from '../deps.js';
import { resolveSecret } from '../auth/tokens.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import { answerWithEtag } from '../http/etag.js';
import type { AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import type { Answer } from '../http/idempotency.js';
import { moneyRoute, type MoneyRequest } from '../http/unit-of-work.js';
import { drawShareImagesSoon } from '../sharing/prerender.js';
import type { AcceptLinkResponse, CancelLinkResponse, GiveResponse } from '../../contract/links.js';
import { centsToDollars } from '../../contract/money.js';
import { acceptableCreator, acceptLink, acceptRequest, type Accepted } from './accept-link.js';
import { cancelLink, type Cancelled } from './cancel-link.js';
import { presentLink } from './presenter.js';
import { createLink, planLink } from './create-link.js';
import { giveRequest, giveToLink, type Give } from './give-to-link.js';
import { planGive } from './give-check.js';
import { confirmGive, countActiveLinks, hasResponded, listProfileLinks, openLink } from './service.js';
import type { LinkDeps } from './use.js';
import { FeedPages } from './feed.js';
import { ViewCounter } from './views.js';

/** Gift links: create, feed, open, accept, give (paths as the spec names them). */
export function linkRoutes(deps: Deps, { authenticate, optionalAuth }: AuthMiddleware): Router<AppState> {
  const links: LinkDeps = { db: deps.db, catalog: deps.catalog, linkTtlHours: deps.config.linkTtlHours, realtime: deps.realtime };
  const views = new ViewCounter(deps.limits, resolveSecret(deps.config));
  const feed = new FeedPages(deps.db);
  const router = new Router<AppState>();

  serve(router, 'POST /links/create', [authenticate], async (ctx, { body }) => {
    const user = actingUser(ctx, { userId: body.creatorUserId, username: body.creatorUsername });
    const plan = await planLink(links, body.details);
    const request = { userId: user.id, scope: 'links.create', input: body.details };
    await moneyRoute(
      deps,
      ctx,
      request,
      (uow) => createLink(uow, links, user, plan),
      (link) => ({ status: 201, body: presentLink(link, user) }),
    );
    drawShareImagesSoon(deps, 'link', user.username);
  });

  // The same answer for everyone: a client revalidating an unchanged page gets a 304.
  serve(router, 'GET /links/all', async (ctx, { query }) => {
    answerWithEtag(ctx, await feed.page(query.page));
  });

  serve(router, 'GET /links/profile/:username', [authenticate], async (ctx, { params, query }) => {
    ctx.body = await listProfileLinks(deps.db, currentUser(ctx), params.username, query.page);
  });

  serve(router, 'GET /links/active-links/:username', [authenticate], async (ctx, { params }) => {
    ctx.body = { totalLinks: await countActiveLinks(deps.db, params.username) };
  });

  // Opening a link page counts a view: limited per client beside the default limit.
  serve(
    router,
    'POST /links/:linkCreatorUsername',
    [routeLimit(deps.limits, deps.config, 'linkOpen'), optionalAuth],
    async (ctx, { params, body }) => {
      // Where the visitor came from and on what, kept at its first visit; nothing of it under Sec-GPC.
      const told = ctx.get('sec-gpc') !== '1';
      const visit = {
        sessionId: body.sessionId,
        address: ctx.ip,
        source: told ? visitorSource(body.source) : null,
        device: told ? visitorDevice(ctx.get('user-agent')) : null,
      };
      // Crawlers and link unfurlers (Slack, iMessage, WhatsApp…) read the link but never count.
      const countView = !isbot(ctx.get('user-agent'));
      const updatedLink = await openLink(deps.db, ctx.state.user, params.linkCreatorUsername, visit, views, { countView });
      ctx.body = { updatedLink };
    },
  );

  serve(router, 'GET /api/user-respond', [authenticate], async (ctx, { query }) => {
    const user = actingUser(ctx, { username: query.linkResponderUsername });
    ctx.body = { responded: await hasResponded(deps.db, user, query) };
  });

  serve(router, 'PUT /api/accept-link', [authenticate], async (ctx, { body }) => {
    const responder = actingUser(ctx, { username: body.linkResponderUsername });
    const input = { creatorUsername: body.linkCreatorUsername, note: body.note };
    const creator = await acceptableCreator(deps.db, responder, input.creatorUsername);
    const request = { userId: responder.id, scope: 'links.accept', input: acceptRequest(input), replayable: true };
    await moneyRoute(deps, ctx, request, (uow) => acceptLink(uow, responder, creator, input.note), presentAccepted);
  });

  // The owner takes back an open give link: closed, and its unused escrow refunded once.
  serve(router, 'DELETE /api/links/:linkId', [authenticate], async (ctx, { params }) => {
    const owner = currentUser(ctx);
    const request = { userId: owner.id, scope: 'links.cancel', input: params.linkId };
    await moneyRoute(deps, ctx, request, (uow) => cancelLink(uow, owner, params.linkId), presentCancelled);
  });

  // One atomic call: the money moves, the give is recorded, the recipient is told.
  serve(router, 'POST /statuses/api/gives', [authenticate], async (ctx, { body }) => {
    const input = { postId: body.postId, amountCents: body.amount, note: body.note, authorisation: body.authorisation };
    const giver = currentUser(ctx);
    const plan = await planGive(deps.db, giver, input);
    const hold = body.authorisation && { intentId: body.authorisation, userId: giver.id, identity: 'anonymous' as const };
    const request: MoneyRequest<GiveResponse> = {
      userId: giver.id,
      scope: 'links.give',
      input: giveRequest(input),
      replayable: true,
      around: hold ? (run) => withCardHold(deps, hold, run) : undefined,
    };
    await moneyRoute(deps, ctx, request, (uow) => giveToLink(uow, giver, plan, input.note), presentGive);
  });

  // Kept for clients of the old two-step give: confirms the give the first call already made.
  serve(router, 'PUT /statuses/api/statuses/:postId/give', [authenticate], async (ctx, { params, body }) => {
    ctx.body = await confirmGive(deps.db, actingUser(ctx, { userId: body.giveUserId }), params.postId, body.giveId);
  });

  return router;
}

/** A give as its answer names it. */
export function presentGive(give: Give): Answer<GiveResponse> {
  const { giveId, link, amountCents, conversationId } = give;
  return {
    status: 201,
    body: { give: { _id: giveId, type: link.type, amount: centsToDollars(amountCents), postId: link.id }, conversationId },
  };
}

/** A cancelled link as its answer names it. */
function presentCancelled({ link, creator, refundedCents }: Cancelled): Answer<CancelLinkResponse> {
  return { status: 200, body: { link: presentLink(link, creator), refunded: centsToDollars(refundedCents) } };
}

/** An accept as its answer names it. */
function presentAccepted({ conversationId, message }: Accepted): Answer<AcceptLinkResponse> {
  return { status: 200, body: { conversationId, newMessage: { _id: message.id, text: message.text } } };
}
