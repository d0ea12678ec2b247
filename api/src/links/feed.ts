import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { jsonWithEtag, type TaggedJson } from '../http/etag.js';
import type { Link } from './entity.js';
import { presentLink } from './presenter.js';
import { LINK_PAGE_SIZE, type LinkView } from './schemas.js';

/** One row of the feed's query: the link's columns and its creator's name and badge date. */
interface FeedRow {
  id: string;
  creator_id: string;
  type: Link['type'];
  give_or_receive: Link['giveOrReceive'];
  amount_cents: number | string;
  initial_quantity: number;
  remaining_quantity: number;
  title: string | null;
  photo: string | null;
  item_id: string | null;
  total_cost_cents: number | string;
  raised_cents: number | string;
  gifts: number;
  status: Link['status'];
  views: number;
  created_at: Date | string;
  expires_at: Date | string;
  username: string;
  subscribed_until: Date | string | null;
}

// One indexed query (idx_links_feed: status, created_at) for the page and its creators, written
// once: no query builder per request, no entity hydration.
const columns = `l.id, l.creator_id, l.type, l.give_or_receive, l.amount_cents, l.initial_quantity,
  l.remaining_quantity, l.title, l.photo, l.item_id, l.total_cost_cents, l.raised_cents, l.gifts,
  l.status, l.views, l.created_at, l.expires_at, u.username, u.subscribed_until`;
const feedSql = (p: (n: number) => string) => `SELECT ${columns}
  FROM links l JOIN users u ON u.id = l.creator_id
  WHERE l.status = 'active' AND l.expires_at > ${p(1)}
  ORDER BY l.created_at DESC, l.id DESC
  LIMIT ${LINK_PAGE_SIZE} OFFSET ${p(2)}`;
const SQLITE_FEED = feedSql(() => '?');
const POSTGRES_FEED = feedSql((n) => `$${n}`);

/**
 * A stored date as a Date: PostgreSQL's driver parses timestamps itself; SQLite keeps TypeORM's
 * UTC text, 'YYYY-MM-DD HH:MM:SS.SSS' (db/dates.ts).
 */
function storedDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

const cents = (value: number | string): number => Number(value);

function toLink(row: FeedRow): Link {
  return {
    id: row.id,
    creatorId: row.creator_id,
    type: row.type,
    giveOrReceive: row.give_or_receive,
    amountCents: cents(row.amount_cents),
    initialQuantity: row.initial_quantity,
    remainingQuantity: row.remaining_quantity,
    title: row.title,
    photo: row.photo,
    itemId: row.item_id,
    totalCostCents: cents(row.total_cost_cents),
    raisedCents: cents(row.raised_cents),
    gifts: row.gifts,
    status: row.status,
    views: row.views,
    createdAt: storedDate(row.created_at),
    expiresAt: storedDate(row.expires_at),
    closedAt: null,
  };
}

interface FeedPage {
  cards: LinkView[];
  /** When the page could change with no write: its first link to expire, or its first creator's badge to end. */
  changesBy: number;
}

async function loadFeed(db: Database, page: number, now: Date): Promise<FeedPage> {
  const rows: FeedRow[] = await db.manager.query(db.isPostgres ? POSTGRES_FEED : SQLITE_FEED, [
    dateParam(db.manager, now),
    (page - 1) * LINK_PAGE_SIZE,
  ]);
  let changesBy = Number.POSITIVE_INFINITY;
  const cards = rows.map((row) => {
    const link = toLink(row);
    const subscribedUntil = row.subscribed_until === null ? null : storedDate(row.subscribed_until);
    changesBy = Math.min(changesBy, link.expiresAt.getTime());
    if (subscribedUntil && subscribedUntil > now) changesBy = Math.min(changesBy, subscribedUntil.getTime());
    return presentLink(link, { username: row.username, subscribedUntil }, undefined, now);
  });
  return { cards, changesBy };
}

/** The public feed: open links, newest first, a page of LINK_PAGE_SIZE, the same for every viewer. */
export async function listFeed(db: Database, page: number): Promise<LinkView[]> {
  return (await loadFeed(db, page, new Date())).cards;
}

const readers = new WeakMap<object, number>();
let readerCount = 0;

/**
 * A value that changes whenever anything is committed to the database, or undefined where there
 * is none. PostgreSQL: the current snapshot (`pg_current_snapshot()`: its xmin, xmax and the
 * transactions in progress); while it is the same, no transaction has committed, so every query
 * would see the same rows. SQLite: the read connection's `PRAGMA data_version`, which changes when
 * any other connection (the writer, another process) commits, tagged with that connection (a
 * reopened reader counts anew). The writer's own commits do not change its data_version, so
 * without a separate reader there is no version.
 */
async function committedVersion(db: Database): Promise<string | undefined> {
  if (db.isPostgres) {
    const [row]: { v: string }[] = await db.manager.query('SELECT pg_current_snapshot()::text AS v');
    return row.v;
  }
  const reader = db.manager;
  if (reader === db.source.manager) return undefined;
  let id = readers.get(reader);
  if (id === undefined) readers.set(reader, (id = ++readerCount));
  const [row]: { data_version: number }[] = await reader.query('PRAGMA data_version');
  return `${id}:${row.data_version}`;
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
