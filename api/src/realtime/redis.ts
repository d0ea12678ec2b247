import type { Logger } from 'pino';

// The type of the client as we create it (RESP3, no modules). redis 6's RESP3 client does not fit
// `ReturnType<typeof createClient>`, which is the client with createClient's generic defaults.
// Imported here, not with the server: only REDIS_URL (multi-node mode) needs the client.
async function create(url: string, name: string) {
  const { createClient } = await import('redis');
  return createClient({ url, name });
}

export type RedisClient = Awaited<ReturnType<typeof create>>;

/** A connected client; errors after start-up are logged (the client reconnects by itself). */
export async function connectRedis(url: string, log: Logger, name: string): Promise<RedisClient> {
  const client = await create(url, name);
  client.on('error', (err: unknown) => log.error({ err, client: name }, 'redis error'));
  await client.connect();
  return client;
}
