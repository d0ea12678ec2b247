import Koa from 'koa';
import bodyParser from '@koa/bodyparser';
import compress from 'koa-compress';
import helmet from 'koa-helmet';
import type { Deps } from './deps.js';
import { authRoutes } from './auth/routes.js';
import { catalogRoutes } from './catalog/routes.js';
import { authMiddleware } from './http/auth.js';
import type { AppState } from './http/context.js';
import { errorMiddleware } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { webMiddleware } from './http/web.js';
import { inviteRoutes } from './invites/routes.js';
import { linkRoutes } from './links/routes.js';
import { conversationRoutes } from './conversations/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { realtimeRoutes } from './realtime/routes.js';
import { uploadRoutes } from './uploads/routes.js';
import { userRoutes } from './users/routes.js';
import { walletRoutes } from './wallet/routes.js';
import { wishlistRoutes } from './wishlists/routes.js';

/** Assembles the Koa app; used by main and by the tests alike. Routes are registered here, explicitly. */
export function createApp(deps: Deps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true; // errors are logged by the error middleware
  app.proxy = deps.config.trustProxy;

  app.use(requestLog(deps.log));
  app.use(errorMiddleware);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...deps.catalog.imageOrigins],
          connectSrc: ["'self'", 'ws:', 'wss:'],
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
  app.use(compress({ threshold: 1024 }));

  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz') {
      await deps.db.source.query('SELECT 1');
      ctx.body = { status: 'ok' };
      return;
    }
    await next();
  });

  app.use(webMiddleware(deps.config));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: deps.config.bodyLimit,
      encoding: 'utf-8',
    }),
  );

  const auth = authMiddleware(deps);
  for (const router of [
    authRoutes(deps, auth),
    userRoutes(deps, auth),
    inviteRoutes(deps, auth),
    uploadRoutes(deps, auth),
    catalogRoutes(deps, auth),
    walletRoutes(deps, auth),
    linkRoutes(deps, auth),
    conversationRoutes(deps, auth),
    notificationRoutes(deps, auth),
    realtimeRoutes(deps, auth),
    wishlistRoutes(deps, auth),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
