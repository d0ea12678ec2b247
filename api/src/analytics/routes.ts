import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { forbidden } from '../errors.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppContext, AppState, Middleware } from '../http/context.js';
import { perClient } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import { spend } from '../limits/rate-limits.js';
import { canActAs } from '../users/policy.js';
import { AnalyticsIngest, type Sender } from './service.js';

/** Analytics calls one browser session may make a minute (beside the per-client limits). */
export const ANALYTICS_PER_SESSION_PER_MINUTE = 120;

/** Global Privacy Control (`Sec-GPC: 1`): the request is answered 204 and nothing is stored. */
const honourGpc: Middleware = async (ctx, next) => {
  if (ctx.get('sec-gpc').trim() === '1') {
    ctx.status = 204;
    return;
  }
  await next();
};

/**
 * The analytics calls of PRODUCT.md §7, each answering 204 (`user_id` comes from the request's session:
 * a body naming someone else is a 403 and stores nothing). Limited per client (a share of
 * API_RATE_LIMIT, on top of the default limit) and per browser session, size-capped, and silent
 * under Global Privacy Control.
 */
export function analyticsRoutes(deps: Deps, { optionalAuth }: AuthMiddleware): Router<AppState> {
  const ingest = new AnalyticsIngest(deps.db, deps.log);
  const perSession = deps.limits.limiter('analytics.session', ANALYTICS_PER_SESSION_PER_MINUTE, 60);
  const clientLimit = perClient(
    deps.limits,
    'analytics.client',
    Math.max(1, Math.floor(deps.config.apiRateLimit / 2)),
    deps.config.apiRateWindowSeconds,
  );
  const router = new Router<AppState>();

  /** The sender of a checked body: its session spends from the session's limit; its user is the session's. */
  const senderOf = async (ctx: AppContext, body: { session_id: string; user_id?: string | null }): Promise<Sender> => {
    await spend(perSession, body.session_id.toLowerCase(), undefined, (ms) =>
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000)))),
    );
    const user = ctx.state.user;
    if (body.user_id != null && !(user && canActAs(user, { userId: body.user_id }))) throw forbidden();
    return { sessionId: body.session_id, userId: user?.id ?? null };
  };

  // The client's limit first, then Global Privacy Control (nothing read or stored), then the session, if any.
  const before = [clientLimit, honourGpc, optionalAuth];

  serve(router, 'POST /analytics/start-session', before, async (ctx, { body }) => {
    ingest.startSession(await senderOf(ctx, body));
    ctx.status = 204;
  });

  serve(router, 'POST /analytics/pageview', before, async (ctx, { body }) => {
    ingest.pageview(await senderOf(ctx, body), body.page_url);
    ctx.status = 204;
  });

  serve(router, 'POST /analytics/log-event', before, async (ctx, { body }) => {
    const sender = await senderOf(ctx, body);
    ingest.logEvent(sender, {
      type: body.event_type,
      details: body.event_details,
      pageUrl: body.page_url,
      userAgent: ctx.get('user-agent') || null,
    });
    ctx.status = 204;
  });

  return router;
}
