import type { Logger } from 'pino';

// The type of the client as we create it (RESP3, no modules). redis 6's RESP3 client does not fit
// `ReturnType<typeof createClient>`, which is the client with createClient's generic defaults.
// Imported here, not with the server: only REDIS_URL (multi-node mode) needs the client.
async function create(url: string, name: string, failFast = false) {
  const redis = await import('redis');
  offline = [redis.ClientOfflineError, redis.ClientClosedError, redis.SocketClosedUnexpectedlyError, redis.ConnectionTimeoutError];
  return redis.createClient({ url, name, disableOfflineQueue: failFast });
}

/** The errors of a command refused or cut because Redis cannot be reached (set once the client is loaded). */
let offline: (abstract new (...args: never[]) => Error)[] = [];

/** True when `err` says Redis cannot be reached, rather than that the command failed. */
export function isRedisUnavailable(err: unknown): boolean {
  return offline.some((type) => err instanceof type);
}

export type RedisClient = Awaited<ReturnType<typeof create>>;

/**
 * A connected client; errors after start-up are logged (the client reconnects by itself). While
 * disconnected, a `failFast` client refuses each command at once (a request answers 503 at once);
 * another queues it until Redis is back (the socket.io adapter's, which does not catch a refusal).
 */
export async function connectRedis(url: string, log: Logger, name: string, { failFast = false } = {}): Promise<RedisClient> {
  const client = await create(url, name, failFast);
  client.on('error', (err: unknown) => log.error({ err, client: name }, 'redis error'));
  await client.connect();
  return client;
}
