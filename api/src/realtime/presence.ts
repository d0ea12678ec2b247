import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisClient } from './redis.js';

/** Who has at least one live socket, on this process or (with Redis) on any. */
export interface Presence {
  /** Adds a live socket; answers the user's live sockets right after it (on every process), so racing adds get distinct answers. */
  add(userId: string, socketId: string): Promise<number>;
  remove(userId: string, socketId: string): Promise<void>;
  /** Exact: the user has a live socket now. For the server's own decisions, never shown to anyone else. */
  isOnline(userId: string): Promise<boolean>;
  /** What other people may be told (`GET /api/onlineusers/{id}`): the coarse rule of `shownAt`. */
  shownOnline(userId: string): Promise<boolean>;
  /** The user's live sockets, on every process. */
  count(userId: string): Promise<number>;
  close(): Promise<void>;
}

/** One stretch of presence: when it began and, once every socket has closed, when the last one did. */
export interface Span {
  start: number;
  end: number | null;
}

/**
 * Shown online once a span has been open for `settleMs`, and until `settleMs` after it ended, so
 * a visit shorter than `settleMs` never shows and neither edge falls at the moment of an action.
 */
export function shownAt(span: Span, open: boolean, now: number, settleMs: number): boolean {
  if (open) return now - span.start >= settleMs;
  return span.end !== null && span.end - span.start >= settleMs && now - span.end < settleMs;
}

/** A socket opening while none is open goes on with the span only while it is still shown, so reopening never flips the answer. */
const continues = (span: Span, now: number, settleMs: number): boolean => shownAt(span, false, now, settleMs);

interface Entry extends Span {
  sockets: Set<string>;
  /** Forgets the entry once its span can no longer show. */
  expiry?: NodeJS.Timeout;
}

/** One process: the sockets and the span of each user, in memory. `clock` is injectable for tests. */
export class MemoryPresence implements Presence {
  private readonly users = new Map<string, Entry>();

  constructor(
    private readonly settleMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  async add(userId: string, socketId: string): Promise<number> {
    const now = this.clock();
    let entry = this.users.get(userId);
    if (!entry) this.users.set(userId, (entry = { sockets: new Set(), start: now, end: null }));
    else if (entry.sockets.size === 0) {
      clearTimeout(entry.expiry);
      if (!continues(entry, now, this.settleMs)) entry.start = now;
      entry.end = null;
    }
    entry.sockets.add(socketId);
    return entry.sockets.size;
  }

  async remove(userId: string, socketId: string): Promise<void> {
    const entry = this.users.get(userId);
    if (!entry?.sockets.delete(socketId) || entry.sockets.size > 0) return;
    entry.end = this.clock();
    this.forgetLater(userId, entry);
  }

  private forgetLater(userId: string, entry: Entry): void {
    entry.expiry = setTimeout(() => {
      if (this.users.get(userId) !== entry || entry.sockets.size > 0) return;
      if (shownAt(entry, false, this.clock(), this.settleMs)) this.forgetLater(userId, entry);
      else this.users.delete(userId);
    }, this.settleMs);
    entry.expiry.unref();
  }

  async isOnline(userId: string): Promise<boolean> {
    return (await this.count(userId)) > 0;
  }

  async shownOnline(userId: string): Promise<boolean> {
    const entry = this.users.get(userId);
    return entry !== undefined && shownAt(entry, entry.sockets.size > 0, this.clock(), this.settleMs);
  }

  async count(userId: string): Promise<number> {
    return this.users.get(userId)?.sockets.size ?? 0;
  }

  async close(): Promise<void> {
    for (const entry of this.users.values()) clearTimeout(entry.expiry);
    this.users.clear();
  }
}

// The span rules of `shownAt` and `continues`, in Redis: KEYS are the user's live sockets and span.
const SPAN = `
local span = redis.call('HMGET', KEYS[2], 'start', 'end')
local start, finish = tonumber(span[1]), tonumber(span[2])
local function lingering(now, settle)
  return start ~= nil and finish ~= nil and finish - start >= settle and now - finish < settle
end
`;

/** ARGV: now, member, its expiry, the live key's ttl, settle, the span's ttl. */
const ADD_SCRIPT = `${SPAN}
local now, settle = tonumber(ARGV[1]), tonumber(ARGV[5])
if redis.call('ZCOUNT', KEYS[1], now, '+inf') == 0 or start == nil then
  if not lingering(now, settle) then redis.call('HSET', KEYS[2], 'start', now) end
  redis.call('HDEL', KEYS[2], 'end')
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return redis.call('ZCOUNT', KEYS[1], now, '+inf')
`;

/** ARGV: now, the span's ttl, then the members to remove. */
const REMOVE_SCRIPT = `
local removed = redis.call('ZREM', KEYS[1], unpack(ARGV, 3))
if removed > 0 and redis.call('ZCOUNT', KEYS[1], ARGV[1], '+inf') == 0 then
  redis.call('HSET', KEYS[2], 'end', ARGV[1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return removed
`;

/** ARGV: now, settle. 1 when shown online. */
const SHOWN_SCRIPT = `${SPAN}
local now, settle = tonumber(ARGV[1]), tonumber(ARGV[2])
if start == nil then return 0 end
if redis.call('ZCOUNT', KEYS[1], now, '+inf') > 0 then
  if now - start >= settle then return 1 end
  return 0
end
if lingering(now, settle) then return 1 end
return 0
`;

/**
 * Several processes: per user a sorted set in Redis of `<process>:<socket>` members scored by when
 * they expire, and a hash holding their span (`start`, and `end` once every socket closed). Each
 * process renews its own sockets every `ttlMs / 3` and removes them on disconnect, so a user is
 * online while any member is unexpired; a process that dies without cleaning up stops counting
 * after `ttlMs` (and the whole key expires with it). Every call is one round trip. The span's times
 * come from `clock` (injectable for tests); the sockets' expiry is real time.
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
    private readonly settleMs = 60_000,
    private readonly ttlMs = 60_000,
    private readonly clock: () => number = Date.now,
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

  private spanKey(userId: string): string {
    return `${this.prefix}:presence-span:${userId}`;
  }

  private member(socketId: string): string {
    return `${this.node}:${socketId}`;
  }

  /** The span outlives the sockets' key by `settleMs`, long enough to answer for the time after the last one closed. */
  private get spanTtl(): string {
    return String(this.ttlMs + this.settleMs);
  }

  async add(userId: string, socketId: string): Promise<number> {
    let set = this.local.get(userId);
    if (!set) this.local.set(userId, (set = new Set()));
    set.add(socketId);
    const now = this.clock();
    const live = await this.redis.eval(ADD_SCRIPT, {
      keys: [this.key(userId), this.spanKey(userId)],
      arguments: [String(now), this.member(socketId), String(now + this.ttlMs), String(this.ttlMs), String(this.settleMs), this.spanTtl],
    });
    return Number(live);
  }

  private removal(userId: string, sockets: Iterable<string>) {
    return {
      keys: [this.key(userId), this.spanKey(userId)],
      arguments: [String(this.clock()), this.spanTtl, ...[...sockets].map((s) => this.member(s))],
    };
  }

  async remove(userId: string, socketId: string): Promise<void> {
    const set = this.local.get(userId);
    set?.delete(socketId);
    if (set?.size === 0) this.local.delete(userId);
    await this.redis.eval(REMOVE_SCRIPT, this.removal(userId, [socketId]));
  }

  async isOnline(userId: string): Promise<boolean> {
    return (await this.count(userId)) > 0;
  }

  async shownOnline(userId: string): Promise<boolean> {
    const shown = await this.redis.eval(SHOWN_SCRIPT, {
      keys: [this.key(userId), this.spanKey(userId)],
      arguments: [String(this.clock()), String(this.settleMs)],
    });
    return shown === 1;
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
        batch.pExpire(this.spanKey(userId), this.ttlMs + this.settleMs);
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
    for (const [userId, sockets] of users) batch.eval(REMOVE_SCRIPT, this.removal(userId, sockets));
    await batch.exec();
  }
}
