import type Router from '@koa/router';
import type { AppState, Middleware } from './context.js';

/**
 * The one answer to a method a path does not take, for all routers at once: several routers
 * share prefixes (`/api`, `/links`, `/messages`…), so each router's own `allowedMethods()` would
 * refuse a method another router serves. After every router has had its turn, a request nobody
 * answered whose path some route knows gets a 405 with `Allow` listing the methods of every
 * route on that path (OPTIONS gets the list with a 204). Any method, known to HTTP or not, is
 * answered this way; an unknown path stays a 404. The error middleware writes the JSON body.
 */
export function allowedMethods(routers: readonly Router<AppState>[]): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null) return;
    const allowed = new Set<string>();
    for (const router of routers)
      for (const layer of router.match(ctx.path, ctx.method).path) for (const method of layer.methods) allowed.add(method);
    if (allowed.size === 0 || allowed.has(ctx.method)) return;
    if (!allowed.has('OPTIONS')) allowed.add('OPTIONS');
    ctx.set('Allow', [...allowed].join(', '));
    ctx.status = ctx.method === 'OPTIONS' ? 204 : 405;
  };
}
