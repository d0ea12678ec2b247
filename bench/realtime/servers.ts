/** The children that serve: a Giftlink API process, or a bare socket.io echo server (the ceiling). */
import crypto from 'node:crypto';
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
  const { UserEntity, newUserRecord } = await import('../../api/src/users/entity.js');
  const { SessionEntity } = await import('../../api/src/auth/entity.js');
  const { newSessionRecord, sessionToken } = await import('../../api/src/auth/session.js');
  const { ConversationEntity } = await import('../../api/src/conversations/entity.js');
  const server = await startServer(loadConfig());
  const { db, tokens } = server.deps;
  process.on('message', (m: SeedRequest | { type: 'stop' }) => {
    if (m.type === 'stop') {
      void server.close().then(() => process.exit(0));
      return;
    }
    void (async () => {
      const users = Array.from({ length: m.pairs * 2 }, (_, i) =>
        newUserRecord({ username: `rt${i}`, email: `rt${i}@example.com`, passwordHash: 'bench-no-login' }),
      );
      const now = new Date();
      const conversations = Array.from({ length: m.pairs }, (_, i) => ({
        id: crypto.randomUUID(),
        initiatorId: users[2 * i].id,
        responderId: users[2 * i + 1].id,
        initiatorAnonymous: true,
        pairKey: `anon:${crypto.randomUUID()}`,
        lastMessageId: null,
        lastMessageAt: now,
        createdAt: now,
      }));
      for (let i = 0; i < users.length; i += 250)
        await db.transaction((em) =>
          em
            .createQueryBuilder()
            .insert()
            .into(UserEntity)
            .values(users.slice(i, i + 250))
            .updateEntity(false)
            .execute(),
        );
      for (let i = 0; i < conversations.length; i += 250)
        await db.transaction((em) =>
          em
            .createQueryBuilder()
            .insert()
            .into(ConversationEntity)
            .values(conversations.slice(i, i + 250))
            .updateEntity(false)
            .execute(),
        );
      const sessions = users.map((u) => newSessionRecord(u.id, { ttlHours: server.deps.config.tokenTtlHours, userAgent: 'bench' }));
      for (let i = 0; i < sessions.length; i += 250)
        await db.transaction((em) =>
          em
            .createQueryBuilder()
            .insert()
            .into(SessionEntity)
            .values(sessions.slice(i, i + 250))
            .updateEntity(false)
            .execute(),
        );
      const signed = await Promise.all(sessions.map((s) => sessionToken(tokens, s)));
      send({ type: 'seeded', tokens: signed, conversations: conversations.map((c) => c.id) } satisfies Seeded);
    })();
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
