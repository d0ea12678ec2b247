import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors.js';
import type { Config } from '../config.js';
import type { RedisClient } from '../realtime/redis.js';
import type { AppContext, Middleware } from './context.js';

export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment and try again.';

/** Who a limit counts: the signed-in user, else the client address (`ctx.ip`, see TRUST_PROXY_HOPS). */
export function clientKey(ctx: AppContext): string {
  const user = ctx.state.user;
  return user ? `u:${user.id}` : `ip:${ctx.ip}`;
}

/**
 * Where rate limits count: in this process, or in Redis in multi-node mode (REDIS_URL), so a
 * limit holds across every API process.
 */
export class RateLimits {
  private readonly made = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis?: { client: RedisClient; prefix: string }) {}

  /** `points` uses per `seconds`, counted by key; one limiter per name. */
  limiter(name: string, points: number, seconds: number): RateLimiterAbstract {
    let limiter = this.made.get(name);
    if (!limiter) {
      limiter = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis.client,
            useRedisPackage: true,
            keyPrefix: `${this.redis.prefix}:rl:${name}`,
            points,
            duration: seconds,
          })
        : new RateLimiterMemory({ keyPrefix: name, points, duration: seconds });
      this.made.set(name, limiter);
    }
    return limiter;
  }

  /** Limits a route per client address; over the limit → 429 with Retry-After. */
  middleware(name: string, points: number, seconds: number): Middleware {
    const limiter = this.limiter(name, points, seconds);
    return async (ctx, next) => {
      await spend(limiter, ctx.ip, undefined, (ms) => ctx.set('Retry-After', String(Math.ceil(ms / 1000))));
      await next();
    };
  }

  /** Limits per client (`clientKey`: the signed-in user, else the address); over the limit → 429 with Retry-After. */
  perClient(name: string, points: number, seconds: number, message = TOO_MANY_REQUESTS): Middleware {
    const limiter = this.limiter(name, points, seconds);
    return async (ctx, next) => {
      await spend(limiter, clientKey(ctx), message, (ms) => ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000)))));
      await next();
    };
  }
}

/**
 * Routes that cost more than a request (sharp on an upload, a catalogue query, a counted view)
 * get a share of API_RATE_LIMIT per the same window, counted per client on their own: at the
 * default 600 a minute that is 10 uploads, 60 searches and 60 link-page opens a minute.
 */
const ROUTE_SHARE = { upload: 60, search: 10, linkOpen: 10 } as const;

/** The tighter limit of one route (see ROUTE_SHARE), per client; its own counter, beside the default one. */
export function routeLimit(limits: RateLimits, config: Config, route: keyof typeof ROUTE_SHARE, message?: string): Middleware {
  const points = Math.max(1, Math.floor(config.apiRateLimit / ROUTE_SHARE[route]));
  return limits.perClient(`api.${route}`, points, config.apiRateWindowSeconds, message);
}

/**
 * The default limit on every API route: API_RATE_LIMIT requests per API_RATE_WINDOW_SECONDS per
 * client (the signed-in user, else the address), in Redis in multi-node mode. Mounted before the
 * routers, after the static site and /healthz, which it does not count.
 */
export function apiRateLimit(limits: RateLimits, config: Config): Middleware {
  return limits.perClient('api', config.apiRateLimit, config.apiRateWindowSeconds);
}

/** Spends one use for `key`; over the limit → 429 (`message`, or the default text). */
export async function spend(
  limiter: RateLimiterAbstract,
  key: string,
  message?: string,
  onLimited?: (msBeforeNext: number) => void,
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) {
      onLimited?.(res.msBeforeNext);
      throw tooManyRequests(message);
    }
    throw res;
  }
}
