import type Router from '@koa/router';
import { ROUTES, type RouteKey, type Routes } from '../../contract/routes/index.js';
import { splitRouteKey, type ParsedOf, type RouteSpec } from '../../contract/route-table.js';
import type { AppContext, AppState, Middleware } from './context.js';
import { validate, type Parts } from './validate.js';

/** What a route's handler gets: its request parts, parsed by the route table's schemas. */
export type RouteInput<R extends RouteSpec> = {
  params: ParsedOf<R['params']>;
  query: ParsedOf<R['query']>;
  body: ParsedOf<R['body']>;
};

type Handler<K extends RouteKey> = (ctx: AppContext, input: RouteInput<Routes[K]>) => Promise<void> | void;

/** The validation steps `serve` made: a route whose stack holds none was registered around the table. */
export const tableSteps = new WeakSet<Middleware>();

/** The request parts a route validates, as the route table gives them. */
function partsOf(spec: RouteSpec): Parts {
  const parts: Parts = {};
  if (spec.params) parts.params = spec.params;
  if (spec.query) parts.query = spec.query;
  if (spec.body) parts.body = spec.body;
  return parts;
}

/**
 * Registers the route the table names `key` (`POST /links/create`): its method and path, then
 * `middleware` (authentication, limits), then the one validation step with the table's schemas,
 * then `handler`. A route cannot validate anything but what the table (and so the OpenAPI
 * document and the renderer's client) says it takes.
 */
export function serve<K extends RouteKey>(router: Router<AppState>, key: K, handler: Handler<K>): void;
export function serve<K extends RouteKey>(router: Router<AppState>, key: K, middleware: Middleware[], handler: Handler<K>): void;
export function serve<K extends RouteKey>(
  router: Router<AppState>,
  key: K,
  middlewareOrHandler: Middleware[] | Handler<K>,
  maybeHandler?: Handler<K>,
): void {
  const middleware = Array.isArray(middlewareOrHandler) ? middlewareOrHandler : [];
  const handler = (Array.isArray(middlewareOrHandler) ? maybeHandler : middlewareOrHandler) as Handler<K>;
  const spec: RouteSpec = ROUTES[key];
  const { method, path } = splitRouteKey(key);
  // A router with a prefix adds it again: the key names the whole path.
  const prefix = router.opts.prefix ?? '';
  if (!path.startsWith(prefix)) throw new Error(`${key}: not under its router's prefix ${prefix}`);
  const step = validate(partsOf(spec), (ctx, input) => handler(ctx, input as RouteInput<Routes[K]>));
  tableSteps.add(step);
  router.register(path.slice(prefix.length), [method], [...middleware, step]);
}
