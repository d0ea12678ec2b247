import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { Config } from '../config.js';
import { DESKTOP_VERSION_HEADER } from '../../contract/desktop.js';
import { CORS_ALLOWED_HEADERS } from '../http/cors.js';
import { isOutdated } from '../http/version.js';
import type { Message } from '../conversations/entity.js';
import { presentMessage } from '../conversations/presenter.js';
import type { Database } from '../db/index.js';
import type { Deps } from '../deps.js';
import { presentNotification } from '../notifications/presenter.js';
import {
  userRoom,
  type ClientToServerEvents,
  type InterServerEvents,
  type NewMessageEvent,
  type ServerToClientEvents,
  type SocketData,
} from './events.js';
import { MemoryPresence, RedisPresence, type Presence } from './presence.js';
import type { Publisher, RealtimeEvent } from './publisher.js';
import { connectRedis, type RedisClient } from './redis.js';
import { unreadCounts } from './unread.js';
import { balanceSummaries } from '../money/balance-store.js';
import { holdClock } from '../money/holds.js';
import type { Metrics } from '../metrics/metrics.js';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** The user's unread counts, read together with those of every user asked for in the same tick (unread.ts). */
export { unreadCounts };

/**
 * The real-time layer: socket.io on the API's own HTTP server, presence, and the publisher that
 * services call after their transactions commit. With REDIS_URL the socket.io Redis adapter
 * carries every room emit to all API processes and presence lives in Redis; without it, one
 * process does everything in memory.
 */
export class Realtime implements Publisher {
  private io?: RealtimeServer;
  private db?: Database;
  /** Work started by `publish` (count queries) and presence updates, awaited by `close`. */
  private readonly pending = new Set<Promise<unknown>>();
  /** Set by `reconnectClients`: from then on no new socket is taken. */
  private closing = false;
  /** Users whose balance changed since the last read of balances, pushed together at the next one. */
  private balancesDue = new Set<string>();
  /** The read of balances under way: one at a time, so a later change is never pushed before an earlier one. */
  private balancesRead?: Promise<void>;

  private constructor(
    private readonly log: Logger,
    readonly presence: Presence,
    private readonly redis: { pub: RedisClient; sub: RedisClient; store: RedisClient; prefix: string } | undefined,
    private readonly metrics: Pick<Metrics, 'messageSent'> | undefined,
  ) {}

  /** @param metrics counts the messages published (each once, by the process that wrote it) */
  static async create(config: Config, log: Logger, metrics?: Pick<Metrics, 'messageSent'>): Promise<Realtime> {
    const settleMs = config.presenceSettleSeconds * 1000;
    if (!config.redisUrl) return new Realtime(log, new MemoryPresence(settleMs), undefined, metrics);
    const pub = await connectRedis(config.redisUrl, log, 'giftlink-pub');
    const sub = await connectRedis(config.redisUrl, log, 'giftlink-sub');
    // Presence and the rate limits: refused at once while Redis is away, so requests fail fast.
    const store = await connectRedis(config.redisUrl, log, 'giftlink-store', { failFast: true });
    return new Realtime(
      log,
      new RedisPresence(store, config.redisPrefix, log, settleMs),
      { pub, sub, store, prefix: config.redisPrefix },
      metrics,
    );
  }

  /** The Redis connection other shared state (rate limits) can use; undefined on one process. */
  get sharedStore(): { client: RedisClient; prefix: string } | undefined {
    return this.redis ? { client: this.redis.store, prefix: this.redis.prefix } : undefined;
  }

  get multiNode(): boolean {
    return this.redis !== undefined;
  }

  /**
   * Starts socket.io on the API's HTTP server (the same port, path /socket.io). The socket event
   * handlers are registered by whoever assembles the server (server.ts, `registerSocketHandlers`).
   */
  attach(server: http.Server, deps: Pick<Deps, 'db' | 'config'>): RealtimeServer {
    if (this.io) throw new Error('realtime is already attached');
    const io: RealtimeServer = new Server(server, {
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
      // The desktop app's origin (CORS_ORIGINS) as for HTTP (http/cors.ts): no credentials, it sends its token.
      cors: { origin: deps.config.corsOrigins, credentials: false, allowedHeaders: CORS_ALLOWED_HEADERS },
      // An outdated desktop app is refused here too (its HTTP calls get 426 upgrade_required: http/version.ts).
      // A process shutting down takes no new socket (a kept-alive connection could still bring one).
      allowRequest: (req, answer) => {
        const version = req.headers[DESKTOP_VERSION_HEADER];
        answer(null, !this.closing && (typeof version !== 'string' || !isOutdated(version, deps.config.minDesktopVersion)));
      },
    });
    if (this.redis)
      io.adapter(createAdapter(catchingPublish(this.redis.pub, this.log), this.redis.sub, { key: `${this.redis.prefix}:socket.io` }));
    this.io = io;
    this.db = deps.db;
    return io;
  }

  /** Keeps `work` until it settles, so `close` can wait for it. */
  track(work: Promise<unknown>): void {
    const tracked = work
      .catch((err: unknown) => this.log.error({ err }, 'realtime task failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  publish(events: readonly RealtimeEvent[]): void {
    const io = this.io;
    if (!io) return;
    for (const event of events) {
      if (event.type === 'message') this.metrics?.messageSent();
      try {
        this.emit(io, event);
      } catch (err) {
        this.log.error({ err, event: event.type }, 'realtime publish failed');
      }
    }
  }

  private emit(io: RealtimeServer, event: RealtimeEvent): void {
    switch (event.type) {
      case 'message': {
        const { conversation, clientId } = event;
        const deliver = (message: Message) => {
          for (const member of new Set([conversation.initiatorId, conversation.responderId])) {
            const room = this.listening(io, member);
            if (!room) continue;
            const payload: NewMessageEvent = { conversationId: conversation.id, message: presentMessage(conversation, member, message) };
            if (clientId !== undefined && member === message.senderId) payload.clientId = clientId;
            room.emit('new-message', payload);
          }
        };
        // Every writer publishes its messages numbered (gift-message.ts, message-writer.ts).
        deliver(event.message);
        return;
      }
      case 'notification':
        this.listening(io, event.notification.receiverId)?.emit(
          'getNotification',
          presentNotification(event.notification),
          event.alert ?? null,
        );
        return;
      case 'unread': {
        const db = this.db;
        const room = this.listening(io, event.userId);
        if (!db || !room) return;
        this.track(unreadCounts(db, event.userId).then((counts) => room.emit('unread-counts', counts)));
        return;
      }
      case 'balance':
        for (const userId of event.userIds) if (this.listening(io, userId)) this.balancesDue.add(userId);
        if (this.balancesDue.size && !this.balancesRead) this.track((this.balancesRead = this.pushBalances(io)));
        return;
    }
  }

  /** Reads the balances due in one query and pushes each to its owner's room only, until none are due. */
  private async pushBalances(io: RealtimeServer): Promise<void> {
    try {
      // Changes of the same tick (a group's commit, a give's two sides) share the read.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.db && this.balancesDue.size) {
        const userIds = [...this.balancesDue];
        this.balancesDue = new Set();
        const balances = await balanceSummaries(this.db, userIds, holdClock(this.db));
        for (const [userId, balance] of balances) io.to(userRoom(userId)).emit('balance', balance);
      }
    } finally {
      this.balancesRead = undefined;
    }
  }

  /**
   * The user's room, or undefined when no socket can be in it: one API process (no Redis) and none
   * of the user's sockets on it. Nothing is then presented or encoded for nobody (a measurable
   * share of the server's time under gives to people not online). With Redis every
   * emit goes out, for the other processes' sockets.
   */
  private listening(io: RealtimeServer, userId: string) {
    const room = userRoom(userId);
    if (!this.redis && !io.of('/').adapter.rooms.has(room)) return undefined;
    return io.to(room);
  }

  /**
   * Closes the open sockets of the user's sessions that `ended` picks (by session id), on every
   * API process: logout closes its own session's, a password change every session's but the new
   * one's. The sessions are already revoked, so the sockets cannot reconnect with them.
   */
  async endSessions(userId: string, ended: (sessionId: string) => boolean): Promise<number> {
    const io = this.io;
    if (!io) return 0;
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    const closing = sockets.filter((s) => ended(s.data.sessionId));
    for (const s of closing) s.disconnect(true);
    return closing.length;
  }

  /** Multi-node mode: settles once Redis answers a PING; refuses at once while either connection is down. */
  async pingRedis(): Promise<void> {
    if (!this.redis) return;
    if (!this.redis.pub.isReady || !this.redis.sub.isReady || !this.redis.store.isReady) throw new Error('redis is not connected');
    await this.redis.pub.ping();
  }

  /**
   * Closes the transport of this process's sockets (only them: other processes keep theirs). A
   * client then reconnects by itself, through the load balancer to another process, and catches up
   * by `seq`; a socket.io disconnect would tell it not to come back.
   */
  reconnectClients(): void {
    this.closing = true;
    this.io?.engine.close();
  }

  /**
   * Closes this process's sockets' transports (see `reconnectClients`) and lets go of Redis. With
   * Redis down, what this process still owes it (presence removals, which expire by themselves, and
   * the adapter's unsubscribes) is dropped rather than awaited for ever.
   */
  async close(): Promise<void> {
    const io = this.io;
    const redis = this.redis;
    this.reconnectClients();
    const down = redis !== undefined && !(redis.pub.isReady && redis.sub.isReady && redis.store.isReady);
    if (down) for (const client of [redis.pub, redis.sub, redis.store]) client.destroy();
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    await this.presence.close().catch((err: unknown) => this.log.warn({ err }, 'presence not cleared at close'));
    if (down) return;
    if (io) await io.of('/').adapter.close();
    if (redis) await Promise.allSettled([redis.pub.close(), redis.sub.close(), redis.store.close()]);
  }
}

/**
 * The client the socket.io adapter publishes with: it never awaits a publish, so one cut by a lost
 * connection to Redis would be an unhandled rejection, which stops the process. Logged instead.
 */
function catchingPublish(client: RedisClient, log: Logger): RedisClient {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop !== 'publish') return value.bind(target);
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<number>).catch((err: unknown) => {
          log.warn({ err }, 'realtime publish lost (Redis unreachable)');
          return 0;
        });
    },
  });
}
