import Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppContext, AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import type { ShareRenderer } from './render.js';
import { shareRendererOf } from './prerender.js';
import { linkImage, wishlistImage, type ShareImage } from './service.js';

/** Browsers, chat apps and CDNs may keep an image five minutes; the ETag revalidates it after. */
const CACHE_CONTROL = 'public, max-age=300';

/** Answers the PNG, or 304 when the client's copy (If-None-Match) is this one: no render then. */
async function answerImage(ctx: AppContext, renderer: ShareRenderer, image: ShareImage): Promise<void> {
  ctx.set('ETag', image.etag);
  ctx.set('Cache-Control', CACHE_CONTROL);
  ctx.set('Content-Security-Policy', "default-src 'none'");
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'image/png';
  ctx.body = await renderer.png(image.etag, image.content, image.template, image.format);
}

/**
 * Share images (public, like the link and wishlist pages): a link's or a wishlist's PNG in one of
 * five templates, as a phone story or an Open Graph card. Rendering costs CPU: limited per client.
 */
export function shareRoutes(deps: Deps, _auth: AuthMiddleware, renderer: ShareRenderer = shareRendererOf(deps)): Router<AppState> {
  const router = new Router<AppState>();
  const limit = routeLimit(deps.limits, deps.config, 'shareImage');

  serve(router, 'GET /links/:username/image', [limit], async (ctx, { params, query }) => {
    await answerImage(ctx, renderer, await linkImage(deps.db, deps.config, params.username, query.template, query.format));
  });

  serve(router, 'GET /wishlists/:username/image', [limit], async (ctx, { params, query }) => {
    await answerImage(ctx, renderer, await wishlistImage(deps.db, deps.config, params.username, query.template, query.format));
  });

  return router;
}
