import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors.js';
import type { Middleware } from './context.js';

/** Limits a route per client address: `points` requests per `seconds`. */
export function rateLimit(name: string, points: number, seconds: number): Middleware {
  const limiter = new RateLimiterMemory({ keyPrefix: name, points, duration: seconds });
  return async (ctx, next) => {
    try {
      await limiter.consume(ctx.ip);
    } catch (res) {
      if (res instanceof RateLimiterRes) {
        ctx.set('Retry-After', String(Math.ceil(res.msBeforeNext / 1000)));
        throw tooManyRequests();
      }
      throw res;
    }
    await next();
  };
}
