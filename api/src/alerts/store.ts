import type BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
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
