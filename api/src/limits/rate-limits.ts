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

  /**
   * Spends one use for `key` from each window in turn, as `spend` on each limiter would: the first
   * one over its limit refuses (429, `message`) and the windows after it are not spent. The same
   * counters as `limiter(name, …)`, so both can be mixed; with Redis, in one round trip (a script
   * doing what rate-limiter-flexible's does for each window) instead of one per window.
   */
  async spendAll(
    windows: readonly (readonly [name: string, points: number, seconds: number])[],
    key: string,
    message?: string,
  ): Promise<void> {
    const redis = this.redis;
    if (!redis) {
      for (const [name, points, seconds] of windows) await spend(this.limiter(name, points, seconds), key, message);
      return;
    }
    const refused = await redis.client.eval(SPEND_ALL_SCRIPT, {
      // RateLimiterRedis's key for `key` (`${keyPrefix}:${key}`, keyPrefix as in `limiter`).
      keys: windows.map(([name]) => `${redis.prefix}:rl:${name}:${key}`),
      arguments: windows.flatMap(([, points, seconds]) => [String(points), String(seconds)]),
    });
    if (Number(refused) > 0) throw tooManyRequests(message);
  }
}

/**
 * KEYS: one counter per window; ARGV: points and seconds per window. For each window in turn, what
 * rate-limiter-flexible's RateLimiterRedis does on `consume` (start the window if none, add one,
 * repair a missing expiry); answers the 1-based window that is over its limit, or 0.
 */
const SPEND_ALL_SCRIPT = `
for i, key in ipairs(KEYS) do
  local points = tonumber(ARGV[2 * i - 1])
  local seconds = ARGV[2 * i]
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', key, 1)
  if redis.call('pttl', key) == -1 then redis.call('expire', key, seconds) end
  if consumed > points then return i end
end
return 0
`;

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
