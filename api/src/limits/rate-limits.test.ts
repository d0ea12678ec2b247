import crypto from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { connectRedis, type RedisClient } from '../realtime/redis.js';
import { RateLimits } from './rate-limits.js';

const redisUrl = loadConfig().redisUrl;
let redis: RedisClient | undefined;
beforeAll(async () => {
  if (redisUrl) redis = await connectRedis(redisUrl, pino({ level: 'silent' }), 'rate-limits-test');
});
afterAll(async () => {
  await redis?.close();
});

const stores = () => [
  ['memory', () => new RateLimits()] as const,
  ...(redisUrl
    ? [['redis', () => new RateLimits({ client: redis!, prefix: `rl-test-${crypto.randomBytes(4).toString('hex')}` })] as const]
    : []),
];

describe('spendAll: several windows over one key', () => {
  for (const [where, make] of stores())
    it(`(${where}) refuses at the first window over its limit, spends none after it, and shares the counters of limiter()`, async () => {
      const limits = make();
      const windows = [
        ['t.burst', 2, 5],
        ['t.minute', 3, 60],
      ] as const;
      await limits.spendAll(windows, 'k', 'slow down');
      await limits.spendAll(windows, 'k', 'slow down');
      await expect(limits.spendAll(windows, 'k', 'slow down')).rejects.toMatchObject({ status: 429, message: 'slow down' });
      // The refused third use spent the burst window only.
      expect((await limits.limiter('t.burst', 2, 5).get('k'))?.consumedPoints).toBe(3);
      expect((await limits.limiter('t.minute', 3, 60).get('k'))?.consumedPoints).toBe(2);
      // Another key counts on its own; the minute window refuses once the burst one has room.
      await limits.spendAll(windows, 'other');
      expect((await limits.limiter('t.minute', 3, 60).get('other'))?.consumedPoints).toBe(1);
      await limits.limiter('t.minute', 3, 60).consume('other', 2);
      await expect(limits.spendAll(windows, 'other')).rejects.toMatchObject({ status: 429 });
      expect((await limits.limiter('t.burst', 2, 5).get('other'))?.consumedPoints).toBe(2);
    });
});
