import type BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { sqliteHandle } from '../db/sqlite-handle.js';

/**
 * The alerts' hand-written SQL. `MESSAGE_ALERTS_CTE` is the part of the PostgreSQL statement that
 * writes a batch of normal messages (conversations/message-store.ts): each message's alert to its
 * recipient (id: the message's), in the same statement, so in the same transaction.
 * `messages` there are the rows of `allowed` joined to `taken` (the ones inserted).
 */
export const MESSAGE_ALERTS_CTE = `alerted AS (
       INSERT INTO alerts (id, user_id, kind, conversation_id, payload, created_at, email_state, email_attempts)
       SELECT a.id, a.recipient_id, 'message', a.conversation_id, json_build_object('messageId', a.id)::text, a.created_at, 'pending', 0
       FROM allowed a JOIN taken ON taken.n = a.n WHERE a.sender_id <> a.recipient_id
       ON CONFLICT (id) DO NOTHING
     )`;

/**
 * The part of a gift's PostgreSQL statement (conversations/gift-store.ts) that writes its alert to
 * the recipient ($3), keyed by the gift message ($6, at $7), in the conversation `c`.
 */
export const GIFT_ALERT_CTE = `alerted AS (
       INSERT INTO alerts (id, user_id, kind, conversation_id, payload, created_at, email_state, email_attempts)
       SELECT $6, $3, 'gift', c.id, json_build_object('messageId', $6::varchar)::text, $7, 'pending', 0 FROM c
       ON CONFLICT (id) DO NOTHING
     )`;

const prepared = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement<[string, string, string, string, string]>>();

/** SQLite, inside the writer's open transaction (message-store.ts): the message alerts, synchronously on its handle. */
export function insertMessageAlertsSqlite(
  em: EntityManager,
  alerts: readonly { id?: string; userId: string; conversationId?: string | null; payload: string; createdAt?: Date }[],
): void {
  if (!alerts.length) return;
  const conn = sqliteHandle(em.dataSource);
  let insert = prepared.get(conn);
  if (!insert) {
    insert = conn.prepare(
      'INSERT INTO alerts (id, user_id, kind, conversation_id, payload, created_at, email_state, email_attempts) ' +
        "VALUES (?, ?, 'message', ?, ?, ?, 'pending', 0) ON CONFLICT (id) DO NOTHING",
    );
    prepared.set(conn, insert);
  }
  for (const a of alerts) insert.run(a.id!, a.userId, a.conversationId!, a.payload, dateParam(em, a.createdAt!) as string);
}

/** The recipient's row as the email job needs it, read from `users` (alerts sits below the users capability). */
export async function recipientRow(
  db: Database,
  userId: string,
): Promise<{ id: string; email: string; username: string; closed: boolean; suspended: boolean } | undefined> {
  const row = await db.manager
    .createQueryBuilder()
    .select(['u.id AS id', 'u.email AS email', 'u.username AS username', 'u.closed_at AS closed_at', 'u.suspended_at AS suspended_at'])
    .from('users', 'u')
    .where('u.id = :userId', { userId })
    .getRawOne<{ id: string; email: string; username: string; closed_at: unknown; suspended_at: unknown }>();
  if (!row) return undefined;
  return { id: row.id, email: row.email, username: row.username, closed: row.closed_at != null, suspended: row.suspended_at != null };
}

/** Which of these messages their recipient has read (opened the thread). */
export async function readMessageIds(db: Database, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.manager
    .createQueryBuilder()
    .select('m.id', 'id')
    .from('messages', 'm')
    .where('m.id IN (:...ids) AND m.read = :yes', { ids, yes: true })
    .getRawMany<{ id: string }>();
  return new Set(rows.map((r) => r.id));
}
