import type { EntityManager } from 'typeorm';
import { blockedSql } from '../blocks/store.js';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { dateFrom, isPostgres, read, run, sql, type SqlValue } from '../db/sql.js';
import { anonymousPairKeySql } from '../identity/store.js';
import { LinkEntity, type Link } from './entity.js';
import { LINK_PAGE_SIZE } from '../../contract/limits.js';

/*
 * One use of a link is one conditional update of its row (atomic: concurrent uses never take more
 * than there is). It mirrors the contract's afterUse (api/contract/link-use.ts); store.test.ts
 * holds the two equal. SET expressions read the row as it was before the update.
 */
const TAKE_USE = `UPDATE links SET remaining_quantity = remaining_quantity - 1, gifts = gifts + 1,
     status = CASE WHEN remaining_quantity = 1 THEN 'used' ELSE status END,
     closed_at = CASE WHEN remaining_quantity = 1 THEN $2 ELSE closed_at END
   WHERE id = $1 AND status = 'active' AND remaining_quantity > 0 AND expires_at > $2`;
const ADD_TO_GROUP_GIFT = `UPDATE links SET raised_cents = raised_cents + $3, gifts = gifts + 1,
     remaining_quantity = CASE WHEN raised_cents + $3 >= total_cost_cents THEN 0 ELSE remaining_quantity END,
     status = CASE WHEN raised_cents + $3 >= total_cost_cents OR remaining_quantity = 0 THEN 'used' ELSE status END,
     closed_at = CASE WHEN raised_cents + $3 >= total_cost_cents OR remaining_quantity = 0 THEN $2 ELSE closed_at END
   WHERE id = $1 AND status = 'active' AND expires_at > $2 AND raised_cents + $3 <= total_cost_cents`;
/** The record of the use: link $1, at $2, amount $3. */
const RECORD_USE = `INSERT INTO link_responses (id, link_id, responder_id, kind, amount_cents, item_id, transfer_id, created_at)
   VALUES ($4, $1, $5, $6, $3, $7, $8, $2)`;
/**
 * SQLite: the record, then the update, which leaves `status` alone: SQLite rewrites the entries of
 * every index over a column a SET names, changed or not, and `status` is in three of the links'
 * indexes (three more pages written per give). The use that leaves no quantity then closes the
 * link with a second statement, in the same transaction. (PostgreSQL compares values: an unchanged
 * `status` keeps the update HOT, so it closes the link in the same statement.)
 */
const SQLITE_USE = {
  record: sql(RECORD_USE),
  take: sql(`UPDATE links SET remaining_quantity = remaining_quantity - 1, gifts = gifts + 1
     WHERE id = $1 AND status = 'active' AND remaining_quantity > 0 AND expires_at > $2 RETURNING remaining_quantity AS "left"`),
  add: sql(`UPDATE links SET raised_cents = raised_cents + $3, gifts = gifts + 1,
     remaining_quantity = CASE WHEN raised_cents + $3 >= total_cost_cents THEN 0 ELSE remaining_quantity END
     WHERE id = $1 AND status = 'active' AND expires_at > $2 AND raised_cents + $3 <= total_cost_cents RETURNING remaining_quantity AS "left"`),
  close: sql(`UPDATE links SET status = 'used', closed_at = $2 WHERE id = $1`),
};
/** PostgreSQL: both in one statement (one round trip); the update only once the record is in. */
const POSTGRES_USE = {
  take: sql(`WITH used AS (${RECORD_USE} RETURNING 1) ${TAKE_USE} AND EXISTS (SELECT 1 FROM used)`),
  add: sql(`WITH used AS (${RECORD_USE} RETURNING 1) ${ADD_TO_GROUP_GIFT} AND EXISTS (SELECT 1 FROM used)`),
};

/** One use of a link: its record's id, the responder, how, how much, and the transfer that paid it. */
export interface LinkUse {
  id: string;
  link: Pick<Link, 'id' | 'itemId'>;
  responderId: string;
  kind: 'accept' | 'give';
  amountCents: number;
  transferId: string;
  at: Date;
}

/**
 * Records the use and takes it from the link's row by one conditional update (TAKE_USE, or
 * ADD_TO_GROUP_GIFT for a group gift), in `em`'s transaction; answers the rows the update changed
 * (0: nothing left to take). A second use by the same responder is a unique violation.
 */
export async function recordUse(em: EntityManager, use: LinkUse, group: boolean): Promise<number> {
  const values: SqlValue[] = [use.link.id, use.at, use.amountCents, use.id, use.responderId, use.kind, use.link.itemId, use.transferId];
  if (isPostgres(em)) return (await run(em, group ? POSTGRES_USE.add : POSTGRES_USE.take, values)).changes;
  await run(em, SQLITE_USE.record, values);
  const used = group
    ? await run<{ left: number }>(em, SQLITE_USE.add, values.slice(0, 3))
    : await run<{ left: number }>(em, SQLITE_USE.take, values.slice(0, 2));
  if (used.rows[0]?.left === 0) await run(em, SQLITE_USE.close, values.slice(0, 2));
  return used.changes;
}

/**
 * Link $1, whether its creator has blocked anonymous giver $2's persona (deliverGift's question,
 * asked here: one statement fewer per give), and whether its creator paused gifts (users/pause.ts).
 */
const LINK_FOR_GIVER = sql(
  `SELECT links.*, ${blockedSql('links.creator_id', anonymousPairKeySql('$2', 'links.creator_id'))} AS giver_blocked, ` +
    '(SELECT gifts_paused_at FROM users WHERE users.id = links.creator_id) IS NOT NULL AS creator_paused FROM links WHERE id = $1',
);

/** A row of `links` as read by `read` (snake_case; bigints may come back as strings). */
type LinkRow = Record<
  | 'id'
  | 'creator_id'
  | 'type'
  | 'give_or_receive'
  | 'amount_cents'
  | 'initial_quantity'
  | 'remaining_quantity'
  | 'title'
  | 'photo'
  | 'item_id'
  | 'total_cost_cents'
  | 'raised_cents'
  | 'gifts'
  | 'status'
  | 'views'
  | 'created_at'
  | 'expires_at'
  | 'closed_at',
  unknown
>;

const linkFrom = (r: LinkRow): Link => ({
  id: r.id as string,
  creatorId: r.creator_id as string,
  type: r.type as Link['type'],
  giveOrReceive: r.give_or_receive as Link['giveOrReceive'],
  amountCents: Number(r.amount_cents),
  initialQuantity: Number(r.initial_quantity),
  remainingQuantity: Number(r.remaining_quantity),
  title: r.title as string | null,
  photo: r.photo as string | null,
  itemId: r.item_id as string | null,
  totalCostCents: Number(r.total_cost_cents),
  raisedCents: Number(r.raised_cents),
  gifts: Number(r.gifts),
  status: r.status as Link['status'],
  views: Number(r.views),
  createdAt: dateFrom(r.created_at),
  expiresAt: dateFrom(r.expires_at),
  closedAt: r.closed_at === null ? null : dateFrom(r.closed_at),
});

/** The link a giver gives to, with whether its creator has blocked the giver's anonymous persona; undefined when there is none. */
export async function linkForGiver(
  db: Database,
  linkId: string,
  giverId: string,
): Promise<{ link: Link; giverBlocked: boolean; creatorPaused: boolean } | undefined> {
  const [row] = await read<LinkRow & { giver_blocked: boolean | number; creator_paused: boolean | number }>(db, LINK_FOR_GIVER, [
    linkId,
    giverId,
  ]);
  return row && { link: linkFrom(row), giverBlocked: Boolean(row.giver_blocked), creatorPaused: Boolean(row.creator_paused) };
}

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

/** A link of the feed, with its creator's name and badge date. */
export interface FeedCard {
  link: Link;
  creator: { username: string; subscribedUntil: Date | null };
}

/** Page `page` of open links at `now`, newest first, LINK_PAGE_SIZE a page. */
export async function feedPage(db: Database, page: number, now: Date): Promise<FeedCard[]> {
  const rows: FeedRow[] = await db.manager.query(isPostgres(db.manager) ? POSTGRES_FEED : SQLITE_FEED, [
    dateParam(db.manager, now),
    (page - 1) * LINK_PAGE_SIZE,
  ]);
  return rows.map((row) => ({
    link: toLink(row),
    creator: { username: row.username, subscribedUntil: row.subscribed_until === null ? null : storedDate(row.subscribed_until) },
  }));
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
export async function committedVersion(db: Database): Promise<string | undefined> {
  if (isPostgres(db.manager)) {
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

/** `$i` on PostgreSQL, `?` on SQLite: the placeholders of the visitor statements, which run through `em.query`. */
const placeholder = (em: EntityManager) => (isPostgres(em) ? (i: number) => `$${i}` : () => '?');

/** Whether the visitor's view of the link counted after `since` (committed data). */
export async function countedSince(em: EntityManager, linkId: string, visitorKey: string, since: Date): Promise<boolean> {
  return em
    .createQueryBuilder()
    .select('1')
    .from('link_visitors', 'v')
    .where('v.link_id = :linkId AND v.visitor_key = :visitorKey', { linkId, visitorKey })
    .andWhere('v.counted_at > :since', { since: dateParam(em, since) })
    .getRawOne()
    .then((row) => row !== undefined);
}

/** When the visitor's last view of the link counted: null for a new visitor, or one never counted. */
export async function lastCounted(em: EntityManager, linkId: string, visitorKey: string): Promise<Date | null> {
  const $ = placeholder(em);
  const before: { counted_at: Date | string | null }[] = await em.query(
    `SELECT counted_at FROM link_visitors WHERE link_id = ${$(1)} AND visitor_key = ${$(2)}`,
    [linkId, visitorKey],
  );
  const last = before[0]?.counted_at;
  return last ? (typeof last === 'string' ? new Date(`${last.replace(' ', 'T')}Z`) : last) : null;
}

/** A visit to record: its visitor, when, and (for a first visit) where from and on what. */
export interface VisitRow {
  id: string;
  linkId: string;
  visitorKey: string;
  userId: string | null;
  at: Date;
  source: string | null;
  device: string | null;
}

/**
 * Inserts the visitor's row, or moves its `counted_at` on when its last counted view was at or
 * before `since`; answers whether either happened. Racing repeats count once (the unique (link_id,
 * visitor_key) decides).
 */
export async function countVisit(em: EntityManager, visit: VisitRow, since: Date): Promise<boolean> {
  const $ = placeholder(em);
  const at = dateParam(em, visit.at);
  const params = [visit.id, visit.linkId, visit.visitorKey, visit.userId, at, at, visit.source, visit.device, dateParam(em, since)];
  const rows: unknown[] = await em.query(
    `INSERT INTO link_visitors (id, link_id, visitor_key, user_id, created_at, counted_at, source, device)
       VALUES (${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${$(8)})
       ON CONFLICT (link_id, visitor_key) DO UPDATE SET counted_at = excluded.counted_at
       WHERE link_visitors.counted_at IS NULL OR link_visitors.counted_at <= ${$(9)}
       RETURNING id`,
    params,
  );
  return rows.length > 0;
}

/** Adds one view, and `newVisitors` (0 or 1) visitors, to the link's UTC `day`. */
export async function addToViewDay(em: EntityManager, linkId: string, day: string, newVisitors: number): Promise<void> {
  const $ = placeholder(em);
  await em.query(
    `INSERT INTO link_view_days (link_id, day, views, visitors) VALUES (${$(1)}, ${$(2)}, 1, ${$(3)})
       ON CONFLICT (link_id, day) DO UPDATE SET views = link_view_days.views + 1, visitors = link_view_days.visitors + excluded.visitors`,
    [linkId, day, newVisitors],
  );
}

/** Visitors of a link first seen before a moment, counted by source, device and signed in (1) or not (0). */
export interface VisitorGroup {
  source: string | null;
  device: string | null;
  signed_in: number | string;
  n: number | string;
}

/** The link's visitors first seen before `before`, grouped for its breakdown (committed data). */
export async function visitorGroups(db: Database, linkId: string, before: Date): Promise<VisitorGroup[]> {
  const em = db.manager;
  const $ = placeholder(em);
  return em.query(
    `SELECT source, device, CASE WHEN user_id IS NULL THEN 0 ELSE 1 END AS signed_in, COUNT(*) AS n
     FROM link_visitors WHERE link_id = ${$(1)} AND created_at < ${$(2)}
     GROUP BY source, device, CASE WHEN user_id IS NULL THEN 0 ELSE 1 END`,
    [linkId, dateParam(em, before)],
  );
}

/** The link's views and distinct visitors per UTC day (committed data). */
export async function viewDays(db: Database, linkId: string): Promise<{ day: string; views: number; visitors: number }[]> {
  const em = db.manager;
  const $ = placeholder(em);
  const stored: { day: string; views: number | string; visitors: number | string }[] = await em.query(
    `SELECT day, views, visitors FROM link_view_days WHERE link_id = ${$(1)}`,
    [linkId],
  );
  return stored.map((d) => ({ day: d.day, views: Number(d.views), visitors: Number(d.visitors) }));
}

/** PostgreSQL: the escrow's row first, as an accept's release locks it before the link's row (no deadlock). */
const LOCK_ESCROW = sql('SELECT 1 FROM ledger_accounts WHERE key = $1 FOR UPDATE');
/** SQLite writers are serialised already: nothing to lock. */
export async function lockEscrow(em: EntityManager, escrowKey: string): Promise<void> {
  if (isPostgres(em)) await run(em, LOCK_ESCROW, [escrowKey]);
}

/**
 * Closes an open give link early by the conditional update a use takes (`status = 'active'`), so
 * of a cancel and a racing accept exactly one wins each use; the escrow left after it is refunded.
 */
export async function closeEarly(em: EntityManager, linkId: string, now: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ status: 'expired', closedAt: now })
    .where('id = :id AND status = :active AND remaining_quantity > 0 AND expires_at > :now', {
      id: linkId,
      active: 'active',
      now: dateParam(em, now),
    })
    .execute();
  return result.affected === 1;
}
