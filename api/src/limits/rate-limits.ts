import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors.js';
import type { RedisClient } from '../realtime/redis.js';

export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment and try again.';

/**
 * Where rate limits count: in this process, or in Redis in multi-node mode (REDIS_URL), so a
 * limit holds across every API process. Services spend from them directly (messages, socket
 * catch-up, link views); the HTTP middleware over them is in http/rate-limit.ts.
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
