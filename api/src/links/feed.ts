import type { Database } from '../db/index.js';
import { jsonWithEtag, type TaggedJson } from '../http/etag.js';
import { presentLink } from './presenter.js';
import type { LinkView } from '../../contract/links.js';
import { committedVersion, feedPage } from './store.js';

interface FeedPage {
  cards: LinkView[];
  /** When the page could change with no write: its first link to expire, or its first creator's badge to end. */
  changesBy: number;
}

async function loadFeed(db: Database, page: number, now: Date): Promise<FeedPage> {
  const rows = await feedPage(db, page, now);
  let changesBy = Number.POSITIVE_INFINITY;
  const cards = rows.map(({ link, creator }) => {
    const { subscribedUntil } = creator;
    changesBy = Math.min(changesBy, link.expiresAt.getTime());
    if (subscribedUntil && subscribedUntil > now) changesBy = Math.min(changesBy, subscribedUntil.getTime());
    return presentLink(link, creator, undefined, now);
  });
  return { cards, changesBy };
}

/** The public feed: open links, newest first, a page of LINK_PAGE_SIZE, the same for every viewer. */
export async function listFeed(db: Database, page: number): Promise<LinkView[]> {
  return (await loadFeed(db, page, new Date())).cards;
}

interface CachedPage {
  version: string;
  validUntil: number;
  answer: TaggedJson;
}

/**
 * The feed's first page, serialized once and served again for as long as nothing is committed to
 * the database and no link or badge on it has run out: checking costs one statement the size of
 * /healthz's one-row read, so it never serves a stale link state, and a busy database simply
 * misses. Other pages are queried each time (a page further down shifts when a link above it
 * expires).
 */
export class FeedPages {
  private first?: CachedPage;

  constructor(private readonly db: Database) {}

  async page(page: number): Promise<TaggedJson> {
    if (page !== 1) return jsonWithEtag(await listFeed(this.db, page));
    // The version is read before the page, so a page kept under it is never older than it.
    const version = await committedVersion(this.db);
    const now = new Date();
    const hit = this.first;
    if (hit && hit.version === version && now.getTime() < hit.validUntil) return hit.answer;
    const { cards, changesBy } = await loadFeed(this.db, 1, now);
    const answer = jsonWithEtag(cards);
    if (version !== undefined) this.first = { version, validUntil: changesBy, answer };
    return answer;
  }
}
