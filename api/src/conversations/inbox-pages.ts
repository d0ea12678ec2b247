import type { InboxQuery } from '../../contract/conversations.js';
import type { Database } from '../db/index.js';
import { LruCache } from '../lru.js';
import { listConversations } from './service.js';
import { inboxVersion } from './store.js';

/** Members whose first page a process keeps: the most recently asked. */
const MEMBERS = 2_000;

/** An inbox page serialized for the wire (UTF-8 once, not on every answer), and the cursor of the page after it. */
export interface InboxAnswer {
  body: Buffer;
  nextCursor: string | null;
}

interface CachedPage extends InboxAnswer {
  version: number;
  limit: number;
  validUntil: number;
}

/**
 * Each member's first inbox page, serialized once and served again while their inbox version
 * (`inbox_versions`, bumped by the database's triggers in the writing transaction) has not moved
 * and no badge on it has run out. The version lives in the database, so every process checks it
 * with one indexed read and never serves a page another process's write has changed. Later
 * pages (by cursor) are read each time.
 */
export class InboxPages {
  private readonly pages = new LruCache<CachedPage>(MEMBERS);

  constructor(private readonly db: Database) {}

  async page(viewerId: string, query: InboxQuery): Promise<InboxAnswer> {
    if (query.cursor !== undefined) return serialized(await listConversations(this.db, viewerId, query));
    // The version is read before the page, so a page kept under it is never older than it.
    const version = await inboxVersion(this.db, viewerId);
    const now = new Date();
    const hit = this.pages.get(viewerId);
    if (hit && hit.version === version && hit.limit === query.limit && now.getTime() < hit.validUntil) return hit;
    const page = await listConversations(this.db, viewerId, query, now);
    const answer = serialized(page);
    this.pages.set(viewerId, { ...answer, version, limit: query.limit, validUntil: page.changesBy });
    return answer;
  }
}

const serialized = (page: { conversations: unknown; nextCursor: string | null }): InboxAnswer => ({
  body: Buffer.from(JSON.stringify(page.conversations)),
  nextCursor: page.nextCursor,
});
