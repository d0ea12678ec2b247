import Koa from 'koa';
import type Router from '@koa/router';
import bodyParser from '@koa/bodyparser';
import compress from 'koa-compress';
import helmet from 'koa-helmet';
import type { Deps } from './deps.js';
import { accountRoutes } from './account/routes.js';
import { alertRoutes } from './alerts/routes.js';
import { pushRoutes } from './push/routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { authRoutes } from './auth/routes.js';
import { sessionListRoutes } from './auth/sessions-list.js';
import { catalogRoutes } from './catalog/routes.js';
import { authMiddleware, identify, type AuthMiddleware } from './http/auth.js';
import type { AppState } from './http/context.js';
import { cors } from './http/cors.js';
import { apiDocs } from './http/docs.js';
import { errorMiddleware } from './http/errors.js';
import { desktopVersionCheck } from './http/version.js';
import { apiRateLimit } from './http/rate-limit.js';
import { refuseNulBytes } from './http/input.js';
import { allowedMethods } from './http/methods.js';
import { requestLog, requestLogFormat } from './http/request-log.js';
import { webMiddleware } from './http/web.js';
import { readinessMiddleware } from './http/ready.js';
import { noStoreWhenSignedIn } from './http/no-store.js';
import { linkPreviews } from './sharing/preview.js';
import { shareRoutes } from './sharing/routes.js';
import { STRIPE_CSP, stripeWebhook } from './subscriptions/webhook.js';
import { settleCardElementsEvent } from './wallet/card-elements.js';
import { settleDispute } from './commands/dispute.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { inviteRoutes } from './invites/routes.js';
import { linkRoutes } from './links/routes.js';
import { conversationRoutes } from './conversations/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { orderRoutes } from './orders/routes.js';
import { realtimeRoutes } from './realtime/routes.js';
import { uploadRoutes } from './uploads/routes.js';
import { userRoutes } from './users/routes.js';
import { walletRoutes } from './wallet/routes.js';
import { wishlistRoutes } from './wishlists/routes.js';
import { blockRoutes } from './blocks/routes.js';
import { reportRoutes } from './moderation/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { connectWebhook } from './payouts/webhook.js';
import { INSTANCE_HEADER, isInstance, writerInstanceId } from './db/instance.js';

/** Assembles the Koa app; used by main and by the tests alike. Routes are registered here, explicitly. */
export function createApp(deps: Deps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true; // errors are logged by the error middleware
  app.proxy = deps.config.trustProxy;
  // The client is the address the last TRUST_PROXY_HOPS proxies saw, never a leftmost entry a client made up.
  app.maxIpsCount = deps.config.trustProxyHops;

  if (deps.metrics) app.use(deps.metrics.middleware());
  app.use(requestLog(deps.log, { format: requestLogFormat(deps.config.env) }));
  // PAYMENTS=stripe: Stripe Elements loads Stripe.js and its frames from Stripe (Stripe's CSP guide).
  const stripe = deps.config.payments === 'stripe' ? STRIPE_CSP : { scriptSrc: [], connectSrc: [], frameSrc: [] };
  app.use(errorMiddleware);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...stripe.scriptSrc],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...deps.catalog.imageOrigins],
          // 'self' covers the socket's ws:/wss: to our own host (CSP3; Chromium, Firefox, Safari 15.4+).
          connectSrc: ["'self'", ...stripe.connectSrc],
          frameSrc: ["'self'", ...stripe.frameSrc],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: deps.config.cookieSecure,
    }),
  );
  // The desktop app's origin (CORS_ORIGINS, no credentials), then its version: an outdated app gets 426.
  app.use(cors(deps.config));
  app.use(desktopVersionCheck(deps.config));
  app.use(compress({ threshold: 1024 }));

  // /readyz, and Connection: close on every answer while draining (http/ready.ts).
  app.use(readinessMiddleware(deps.readiness));
  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz') {
      const instance = await writerInstanceId(deps.db);
      // The id is never told, whoever asks (a proxy on this machine asks for anyone): a command names the one it opened.
      const named = ctx.get(INSTANCE_HEADER);
      if (named && !isInstance(named, instance)) {
        ctx.status = 409;
        ctx.body = { status: 'other database' };
        return;
      }
      ctx.body = { status: 'ok' };
      return;
    }
    await next();
  });

  // Stripe's signed webhook (PAYMENTS=stripe): it reads its raw body itself, so it sits before the body parser.
  app.use(stripeWebhook(deps, { paymentIntentSucceeded: settleCardElementsEvent, dispute: settleDispute }));
  app.use(connectWebhook(deps));
  app.use(webMiddleware(deps.config, linkPreviews(deps)));
  // Who is asking, for every request (routes then require it, and the rate limits count by it).
  app.use(identify(deps));
  // Signed-in answers are never cached (unless the route set its own Cache-Control).
  app.use(noStoreWhenSignedIn);
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.bodyLimit,
      encoding: 'utf-8',
    }),
  );
  // The default limit on every API route, per user (identified above) or client address.
  app.use(apiRateLimit(deps.limits, deps.config));
  app.use(refuseNulBytes);

  const auth = authMiddleware();
  const routers = apiRouters(deps, auth);
  // The published contract: /api/openapi.json and its reference page /api/docs (http/docs.ts).
  app.use(apiDocs(routers, auth));
  // One 405/OPTIONS answer over all routers: they share prefixes (see http/methods.ts).
  app.use(allowedMethods(routers));
  for (const router of routers) app.use(router.routes());
  return app;
}

/** Every router of the API, in the order they are mounted; the tests walk their routes too. */
export function apiRouters(deps: Deps, auth: AuthMiddleware): Router<AppState>[] {
  return [
    authRoutes(deps, auth),
    sessionListRoutes(deps, auth),
    userRoutes(deps, auth),
    inviteRoutes(deps, auth),
    uploadRoutes(deps, auth),
    catalogRoutes(deps, auth),
    walletRoutes(deps, auth),
    payoutRoutes(deps, auth),
    linkRoutes(deps, auth),
    conversationRoutes(deps, auth),
    notificationRoutes(deps, auth),
    alertRoutes(deps, auth),
    pushRoutes(deps, auth),
    realtimeRoutes(deps, auth),
    wishlistRoutes(deps, auth),
    orderRoutes(deps, auth),
    accountRoutes(deps, auth),
    analyticsRoutes(deps, auth),
    shareRoutes(deps, auth),
    subscriptionRoutes(deps, auth),
    blockRoutes(deps, auth),
    reportRoutes(deps, auth),
  ];
}
