/** The children that serve: a Giftlink API process, or a bare socket.io echo server (the ceiling). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import { send, type Listening, type SeedRequest, type Seeded } from './protocol.js';

/** A Giftlink API process (the real startServer); the first one seeds users and conversations. */
export async function serverChild(): Promise<void> {
  const { loadConfig } = await import('../../api/src/config.js');
  const { startServer } = await import('../../api/src/server.js');
  const { seedChatPairs } = await import('../seed.js');
  const server = await startServer(loadConfig());
  process.on('message', (m: SeedRequest | { type: 'stop' }) => {
    if (m.type === 'stop') {
      void server.close().then(() => process.exit(0));
      return;
    }
    void seedChatPairs(server.deps, m.pairs).then(({ tokens, conversations }) =>
      send({ type: 'seeded', tokens, conversations } satisfies Seeded),
    );
  });
  send({ type: 'listening', url: server.url } satisfies Listening);
}

/** The ceiling: bare socket.io, each socket in the room its handshake names, a room emit per message. */
export async function echoChild(): Promise<void> {
  const server = http.createServer();
  const io = new Server(server, { serveClient: false });
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (redisUrl) {
    const pub = createClient({ url: redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: `${process.env.BENCH_REDIS_PREFIX}:socket.io` }));
  }
  io.on('connection', (socket) => {
    const room = String((socket.handshake.auth as { room?: unknown }).room);
    void socket.join(room);
    socket.on('msg', (payload: { to: string; text: string }, ack?: (ok: boolean) => void) => {
      // Like Giftlink: the recipient's room and the sender's own room, then the ack.
      io.to(payload.to).emit('msg', { text: payload.text, from: room });
      io.to(room).emit('msg-self', { text: payload.text });
      ack?.(true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stop') {
      void io.close();
      setTimeout(() => process.exit(0), 200);
    }
  });
  send({ type: 'listening', url: `http://127.0.0.1:${port}` } satisfies Listening);
}
