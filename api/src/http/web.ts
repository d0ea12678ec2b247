import fs from 'node:fs';
import path from 'node:path';
import send from 'koa-send';
import type { Config } from '../config.js';
import type { Middleware } from './context.js';

/** Paths that are never the website, whatever the client accepts. */
const NEVER_WEB = /^\/(api|uploads|socket\.io|healthz|catalog)(\/|$)/;

/**
 * Serves the built website from the API's own origin: hashed assets cached for a year, other files
 * briefly, and index.html (never cached) for any page a browser navigates to. Several page paths
 * share a prefix with API calls (/invites/accept/{id}, /messages/{id}), so a GET whose Accept asks
 * for HTML gets the page and anything else goes on to the API.
 */
export function webMiddleware(config: Config): Middleware {
  const root = config.webDir;
  const index = path.join(root, 'index.html');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || NEVER_WEB.test(ctx.path)) return next();
    if (ctx.path !== '/' && path.extname(ctx.path)) {
      const immutable = ctx.path.startsWith('/assets/');
      try {
        await send(ctx, ctx.path, {
          root,
          maxage: immutable ? 365 * 24 * 3600 * 1000 : 3600 * 1000,
          immutable,
        });
        return;
      } catch {
        // not a file of the site: maybe an API path with a dot in it
      }
    }
    if (!(ctx.get('accept') ?? '').includes('text/html')) return next();
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The website is not built yet: run `npm run build:web`.';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root });
  };
}
