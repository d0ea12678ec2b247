import type { Config } from '../config.js';
import { TOO_MANY_REQUESTS, spend, type RateLimits } from '../limits/rate-limits.js';
import type { AppContext, Middleware } from './context.js';

/** Who a limit counts: the signed-in user, else the client address (`ctx.ip`, see TRUST_PROXY_HOPS). */
export function clientKey(ctx: AppContext): string {
  const user = ctx.state.user;
  return user ? `u:${user.id}` : `ip:${ctx.ip}`;
}

/** One limit on a route, counted by `keyOf`; over the limit → 429 (`message`) with Retry-After. */
function limitBy(limiter: ReturnType<RateLimits['limiter']>, keyOf: (ctx: AppContext) => string, message?: string): Middleware {
  return async (ctx, next) => {
    await spend(limiter, keyOf(ctx), message, (ms) => ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000)))));
    await next();
  };
}

/** Limits a route per client address (login and registration: nobody is signed in yet). */
export function perAddress(limits: RateLimits, name: string, points: number, seconds: number): Middleware {
  return limitBy(limits.limiter(name, points, seconds), (ctx) => ctx.ip);
}

/** Limits per client (`clientKey`: the signed-in user, else the address). */
export function perClient(limits: RateLimits, name: string, points: number, seconds: number, message = TOO_MANY_REQUESTS): Middleware {
  return limitBy(limits.limiter(name, points, seconds), clientKey, message);
}

/**
 * Routes that cost more than a request (sharp on an upload, a catalogue query, a counted view)
 * get a share of API_RATE_LIMIT per the same window, counted per client on their own: at the
 * default 600 a minute that is 10 uploads, 60 searches, 60 link-page opens and 60 share images a minute.
 */
const ROUTE_SHARE = { upload: 60, search: 10, linkOpen: 10, shareImage: 10, payouts: 10 } as const;

/** The tighter limit of one route (see ROUTE_SHARE), per client; its own counter, beside the default one. */
export function routeLimit(limits: RateLimits, config: Config, route: keyof typeof ROUTE_SHARE, message?: string): Middleware {
  const points = Math.max(1, Math.floor(config.apiRateLimit / ROUTE_SHARE[route]));
  return perClient(limits, `api.${route}`, points, config.apiRateWindowSeconds, message);
}

/**
 * The default limit on every API route: API_RATE_LIMIT requests per API_RATE_WINDOW_SECONDS per
 * client (the signed-in user, else the address), in Redis in multi-node mode. Mounted before the
 * routers, after the static site and /healthz, which it does not count.
 */
export function apiRateLimit(limits: RateLimits, config: Config): Middleware {
  return perClient(limits, 'api', config.apiRateLimit, config.apiRateWindowSeconds);
}
