import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisClient } from './redis.js';

/** Who has at least one live socket, on this process or (with Redis) on any. */
export interface Presence {
  add(userId: string, socketId: string): Promise<void>;
  remove(userId: string, socketId: string): Promise<void>;
  isOnline(userId: string): Promise<boolean>;
  /** The user's live sockets, on every process. */
  count(userId: string): Promise<number>;
  close(): Promise<void>;
}

/** One process: the sockets of each user, in memory. */
export class MemoryPresence implements Presence {
  private readonly sockets = new Map<string, Set<string>>();

  async add(userId: string, socketId: string): Promise<void> {
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    set.add(socketId);
  }

  async remove(userId: string, socketId: string): Promise<void> {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socketId);
    if (set.size === 0) this.sockets.delete(userId);
  }

  async isOnline(userId: string): Promise<boolean> {
    return this.sockets.has(userId);
  }

  async count(userId: string): Promise<number> {
    return this.sockets.get(userId)?.size ?? 0;
  }

  async close(): Promise<void> {
    this.sockets.clear();
  }
}

/**
 * Several processes: per user a sorted set in Redis of `<process>:<socket>` members scored by when
 * they expire. Each process renews its own sockets every `ttlMs / 3` and removes them on
 * disconnect, so a user is online while any member is unexpired; a process that dies without
 * cleaning up stops counting after `ttlMs` (and the whole key expires with it).
 */
export class RedisPresence implements Presence {
  private readonly node = crypto.randomBytes(6).toString('hex');
  /** This process's sockets per user, renewed by the timer. */
  private readonly local = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly log: Logger,
    private readonly ttlMs = 60_000,
  ) {
    this.timer = setInterval(
      () => {
        this.renewing = this.renew().catch((err: unknown) => this.log.error({ err }, 'presence renewal failed'));
      },
      Math.max(1000, Math.floor(ttlMs / 3)),
    );
    this.timer.unref();
  }

  private key(userId: string): string {
    return `${this.prefix}:presence:${userId}`;
  }

  private member(socketId: string): string {
    return `${this.node}:${socketId}`;
  }

  async add(userId: string, socketId: string): Promise<void> {
    let set = this.local.get(userId);
    if (!set) this.local.set(userId, (set = new Set()));
    set.add(socketId);
    const key = this.key(userId);
    await this.redis
      .multi()
      .zAdd(key, { score: Date.now() + this.ttlMs, value: this.member(socketId) })
      .pExpire(key, this.ttlMs)
      .exec();
  }

  async remove(userId: string, socketId: string): Promise<void> {
    const set = this.local.get(userId);
    set?.delete(socketId);
    if (set?.size === 0) this.local.delete(userId);
    await this.redis.zRem(this.key(userId), this.member(socketId));
  }

  async isOnline(userId: string): Promise<boolean> {
    return (await this.count(userId)) > 0;
  }

  async count(userId: string): Promise<number> {
    return this.redis.zCount(this.key(userId), Date.now(), '+inf');
  }

  /** Pushes this process's sockets' expiry forward and drops expired members, in one round trip per 500 users. */
  private async renew(): Promise<void> {
    const now = Date.now();
    const users = [...this.local.entries()];
    for (let i = 0; i < users.length; i += 500) {
      const batch = this.redis.multi();
      for (const [userId, sockets] of users.slice(i, i + 500)) {
        const key = this.key(userId);
        batch.zRemRangeByScore(key, '-inf', now);
        batch.zAdd(
          key,
          [...sockets].map((s) => ({ score: now + this.ttlMs, value: this.member(s) })),
        );
        batch.pExpire(key, this.ttlMs);
      }
      await batch.exec();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    const users = [...this.local.entries()];
    this.local.clear();
    if (!users.length) return;
    const batch = this.redis.multi();
    for (const [userId, sockets] of users)
      batch.zRem(
        this.key(userId),
        [...sockets].map((s) => this.member(s)),
      );
    await batch.exec();
  }
}
