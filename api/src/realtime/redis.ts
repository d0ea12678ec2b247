import { createClient } from 'redis';
import type { Logger } from 'pino';

export type RedisClient = ReturnType<typeof createClient>;

/** A connected client; errors after start-up are logged (the client reconnects by itself). */
export async function connectRedis(url: string, log: Logger, name: string): Promise<RedisClient> {
  const client = createClient({ url, name });
  client.on('error', (err: unknown) => log.error({ err, client: name }, 'redis error'));
  await client.connect();
  return client;
}
