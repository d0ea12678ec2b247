import { In } from 'typeorm';
import type { Database } from '../db/index.js';
import { ConversationEntity, type Conversation } from './entity.js';

/**
 * Conversations as `sendMessage` needs them, cached per process. What it reads never changes once
 * a conversation exists: its members, who is anonymous to whom and its key (nothing updates or
 * deletes them), so a cached copy cannot go stale across processes. Its last message does change:
 * callers must not read `lastMessageId` / `lastMessageAt` from here. The conversations not cached
 * yet that are asked for in the same tick are read together, in one query.
 */
const CACHE_SIZE = 20_000;
const CHUNK = 500;

class ConversationCache {
  private readonly cache = new Map<string, Conversation>();
  private misses = new Map<string, Promise<Conversation | null>>();
  private waiting = new Map<string, { resolve: (found: Conversation | null) => void; reject: (err: unknown) => void }>();

  constructor(private readonly db: Database) {}

  get(id: string): Promise<Conversation | null> {
    const hit = this.cache.get(id);
    if (hit) {
      // Least recently used goes first: move this one to the end.
      this.cache.delete(id);
      this.cache.set(id, hit);
      return Promise.resolve(hit);
    }
    let miss = this.misses.get(id);
    if (!miss) {
      if (this.misses.size === 0) setImmediate(() => void this.load());
      miss = new Promise<Conversation | null>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
      this.misses.set(id, miss);
    }
    return miss;
  }

  private async load(): Promise<void> {
    const waiting = this.waiting;
    this.misses = new Map();
    this.waiting = new Map();
    const ids = [...waiting.keys()];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      try {
        const found = new Map((await this.db.manager.findBy(ConversationEntity, { id: In(chunk) })).map((c) => [c.id, c]));
        for (const id of chunk) {
          const c = found.get(id) ?? null;
          if (c) this.remember(c);
          waiting.get(id)!.resolve(c);
        }
      } catch (err) {
        // Each caller gets the error; nothing is cached, the next ask reads again.
        for (const id of chunk) waiting.get(id)!.reject(err);
      }
    }
  }

  private remember(c: Conversation): void {
    this.cache.set(c.id, c);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }
}

const caches = new WeakMap<Database, ConversationCache>();

/** The conversation (its members and identity), or null when there is none with that id. */
export function cachedConversation(db: Database, conversationId: string): Promise<Conversation | null> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new ConversationCache(db)));
  return cache.get(conversationId);
}
