import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import { CATALOG_IMAGE_NAME } from './embedded.js';
import { Thumbnails } from './thumbnails.js';
import { ITEM_THUMB_WIDTH } from '../../contract/item-images.js';
import { findProduct, searchProducts } from './service.js';

const IMAGE_MAX_AGE_SECONDS = 30 * 24 * 3600;

export function catalogRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const thumbs = new Thumbnails(ITEM_THUMB_WIDTH);

  // Each search queries the catalogue (eBay's API, or the database): a tighter limit than the default one.
  serve(
    router,
    'GET /api/products/search',
    [routeLimit(deps.limits, deps.config, 'search', 'Too many searches. Please wait a moment and try again.'), authenticate],
    async (ctx, { query }) => {
      ctx.body = await searchProducts(deps.catalog, query.q);
    },
  );

  serve(router, 'GET /api/products/:itemId', [authenticate], async (ctx, { params }) => {
    ctx.body = await findProduct(deps.catalog, params.itemId);
  });

  // The embedded catalogue's pictures: only our own file names, always as JPEG, never sniffed;
  // `?w=144` is the small copy a wishlist row shows (the only other width).
  const imagesDir = path.join(deps.config.catalogDir, 'images');
  serve(router, 'GET /catalog/images/:name', async (ctx) => {
    const name = ctx.params.name;
    const width = ctx.query.w;
    if (!CATALOG_IMAGE_NAME.test(name) || (width !== undefined && width !== String(ITEM_THUMB_WIDTH))) return;
    const file = path.join(imagesDir, name);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
      if (!stat.isFile()) return;
    } catch {
      return; // not found: the 404 answer comes from the error middleware
    }
    const version = `${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`;
    ctx.set('Cache-Control', `public, max-age=${IMAGE_MAX_AGE_SECONDS}`);
    ctx.set('ETag', width ? `"${version}-w${width}"` : `"${version}"`);
    ctx.lastModified = stat.mtime;
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.set('Content-Disposition', 'inline');
    ctx.type = 'image/jpeg';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (width) {
      const small = await thumbs.get(file, version);
      ctx.set('Content-Length', String(small.length));
      ctx.body = small;
      return;
    }
    ctx.set('Content-Length', String(stat.size));
    ctx.body = fs.createReadStream(file);
  });

  return router;
}
