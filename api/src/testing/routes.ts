import { apiRouters } from '../app.js';
import { authMiddleware } from '../http/auth.js';
import type { Middleware } from '../http/context.js';
import { tableSteps } from '../http/route.js';
import type { RunningServer } from '../server.js';

/** One route as the routers built by app.ts register it. */
export interface RegisteredRoute {
  method: string;
  /** The path as registered, prefix included: `/api/users/:id`. */
  template: string;
  paramNames: string[];
  regexp: RegExp;
  /** Registered by `serve` (http/route.ts) from its entry in the route table. */
  fromTable: boolean;
}

/**
 * Every route of the API, read from the `stack` of each router `createApp` mounts (HEAD, which
 * the router adds to each GET, is left out). Tests that must cover every route walk this list,
 * so a new route is covered the day it is registered.
 */
export function registeredRoutes(server: RunningServer): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const router of apiRouters(server.deps, authMiddleware()))
    for (const layer of router.stack)
      for (const method of layer.methods.filter((m) => m !== 'HEAD'))
        routes.push({
          method,
          template: String(layer.path),
          paramNames: layer.paramNames.map((p) => String(p.name)),
          regexp: layer.regexp,
          fromTable: (layer.stack as unknown as Middleware[]).some((step) => tableSteps.has(step)),
        });
  return routes;
}

/** The route's path with each `:param` replaced by `values[param]` (taken as already encoded). */
export function concretePath(route: RegisteredRoute, values: Record<string, string>): string {
  return route.template.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');
}

/** Every method each concrete path answers, over all routers (as a client would find out). */
export function methodsOf(routes: RegisteredRoute[], path: string): Set<string> {
  const methods = new Set<string>();
  for (const route of routes)
    if (route.regexp.test(path)) {
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
    }
  return methods;
}
