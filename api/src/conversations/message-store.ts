import type BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { canReach } from './policy.js';
import type { Database } from '../db/index.js';
import { dateParam } from '../db/dates.js';
import { isPostgres } from '../db/sql.js';
import { sqliteHandle } from '../db/sqlite-handle.js';
import type { Message } from './entity.js';
import { lockMembersSql } from './member-locks-store.js';
import { MESSAGE_ALERTS_CTE } from '../alerts/store.js';
import { enqueueMessageAlerts } from '../alerts/outbox.js';

/** A normal message to write, and who must not have blocked its sender. */
export interface PendingMessage {
  row: Message;
  recipientId: string;
}

/** The written message, or `blocked` when its recipient has blocked its sender (nothing stored). */
export type WriteResult = Message | 'blocked';

/**
 * Writes a batch of normal messages (message-writer.ts says how batches form) in one transaction;
 * `started` is called once the next batch may start (see `drain` there).
 */
export async function writeBatch(db: Database, batch: readonly PendingMessage[], started: () => void): Promise<WriteResult[]> {
  if (!isPostgres(db.source.manager)) {
    // Replayable: the work only reads and writes the database and answers what it wrote. So it runs
    // in the writer's open transaction while the last COMMIT's flush waits for the disk, beside
    // the gives (group-commit.ts); and the next batch may start at once: the writer runs the
    // transactions in the order asked, so it is numbered after this one all the same.
    const written = db.transaction(async (em) => enqueueMessageAlerts(em, batch, writeSqlite(em, batch)), { replayable: true });
    started();
    return written;
  }
  // One statement, so its own transaction (autocommit): it answers once committed, numbered.
  const written = await writePostgres(db.source.manager, batch);
  started();
  return batch.map(({ row }) => {
    const seq = written.get(row.id);
    return seq === undefined ? 'blocked' : { ...row, seq };
  });
}

interface SqliteStatements {
  blocked: BetterSqlite3.Statement<[string, string], number>;
  take: BetterSqlite3.Statement<[number], number>;
  insert: BetterSqlite3.Statement<[string, string, string, string, string, number]>;
  last: BetterSqlite3.Statement<[string, string, string]>;
}

const prepared = new WeakMap<BetterSqlite3.Database, SqliteStatements>();

function statements(conn: BetterSqlite3.Database): SqliteStatements {
  let s = prepared.get(conn);
  if (!s) {
    s = {
      blocked: conn.prepare<[string, string], number>('SELECT 1 FROM blocks WHERE blocker_id = ? AND conversation_id = ? LIMIT 1').pluck(),
      take: conn.prepare<[number], number>("UPDATE counters SET value = value + ? WHERE name = 'message_seq' RETURNING value").pluck(),
      insert: conn.prepare(
        'INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at, seq) ' +
          "VALUES (?, ?, ?, ?, 'normal', NULL, NULL, NULL, 0, ?, ?)",
      ),
      last: conn.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?'),
    };
    prepared.set(conn, s);
  }
  return s;
}

/**
 * SQLite: inside the writer connection's open transaction (the queued `db.transaction`), so the
 * statements run on that connection's better-sqlite3 handle directly, synchronously.
 */
function writeSqlite(em: EntityManager, batch: readonly PendingMessage[]): WriteResult[] {
  const conn = sqliteHandle(em.dataSource);
  const s = statements(conn);
  // A write first: the transaction takes the write lock now (waiting for another process's
  // writer, busy_timeout), never after a read, where SQLite would refuse it at once (SQLITE_BUSY).
  // Numbers for the whole batch; those of blocked messages are given back under the same lock.
  let seq = s.take.get(batch.length)! - batch.length;
  const allowed = batch.map(({ row, recipientId }) =>
    canReach(
      row.senderId,
      recipientId,
      s.blocked.get(recipientId, row.conversationId) ? [{ blockerId: recipientId, blockedId: row.senderId }] : [],
    ),
  );
  const refused = allowed.filter((ok) => !ok).length;
  if (refused) s.take.get(-refused);
  const last = new Map<string, Message>();
  const results = batch.map(({ row }, i): WriteResult => {
    if (!allowed[i]) return 'blocked';
    const message = { ...row, seq: (seq += 1) };
    s.insert.run(
      message.id,
      message.conversationId,
      message.senderId,
      message.text,
      dateParam(em, message.createdAt) as string,
      message.seq,
    );
    last.set(message.conversationId, message);
    return message;
  });
  for (const m of last.values()) s.last.run(m.id, dateParam(em, m.createdAt) as string, m.conversationId);
  return results;
}

/**
 * PostgreSQL: one statement, run outside an explicit transaction, so it commits as one. The members
 * of the batch's messages are locked first, as a gift locks its two (member-locks-store.ts), then its
 * conversations, in id order (each scalar subquery on the CTE before runs once, before the
 * next yields a row, so two processes' batches, or a batch and a gift, never wait on each other in
 * a cycle); the blocked senders' messages are left out, the rest take numbers from the sequence
 * (increasing in arrival order) and are inserted, and the last of each conversation becomes its
 * last message. Answers the numbers of those written.
 */
async function writePostgres(em: EntityManager, batch: readonly PendingMessage[]): Promise<Map<string, number>> {
  const rows: { id: string; seq: string }[] = await em.query(
    `WITH input AS (
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::timestamp[])
         WITH ORDINALITY AS t(id, conversation_id, sender_id, recipient_id, text, created_at, ord)
     ), members AS (
       ${lockMembersSql('SELECT sender_id AS x FROM input UNION SELECT recipient_id FROM input')}
     ), locked AS (
       SELECT c.id FROM conversations c
       WHERE (SELECT count(*) FROM members) >= 0 AND c.id IN (SELECT conversation_id FROM input) ORDER BY c.id FOR UPDATE
     ), allowed AS (
       -- canReach (blocks/policy.ts): unless the recipient has blocked the sender in this conversation
       SELECT i.*, row_number() OVER (ORDER BY i.ord) AS n FROM input i
       WHERE (SELECT count(*) FROM locked) >= 0
         AND (i.sender_id = i.recipient_id
              OR NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = i.recipient_id AND b.conversation_id = i.conversation_id))
     ), taken AS (
       -- After the members are locked (allowed waits for them); the k-th smallest goes to the k-th message.
       SELECT seq, row_number() OVER (ORDER BY seq) AS n
       FROM (SELECT nextval('message_seq_numbers') AS seq FROM generate_series(1, (SELECT count(*) FROM allowed))) s
     ), inserted AS (
       INSERT INTO messages (id, conversation_id, sender_id, text, message_type, read, created_at, seq)
       SELECT a.id, a.conversation_id, a.sender_id, a.text, 'normal', false, a.created_at, taken.seq
       FROM allowed a JOIN taken ON taken.n = a.n ORDER BY a.ord
       RETURNING id, seq
     ), latest AS (
       SELECT DISTINCT ON (conversation_id) conversation_id, id, created_at FROM allowed ORDER BY conversation_id, ord DESC
     ), moved AS (
       UPDATE conversations c SET last_message_id = latest.id, last_message_at = latest.created_at
       FROM latest WHERE c.id = latest.conversation_id
     ), ${MESSAGE_ALERTS_CTE}
     SELECT id, seq FROM inserted`,
    [
      batch.map((m) => m.row.id),
      batch.map((m) => m.row.conversationId),
      batch.map((m) => m.row.senderId),
      batch.map((m) => m.recipientId),
      batch.map((m) => m.row.text),
      batch.map((m) => m.row.createdAt),
    ],
  );
  return new Map(rows.map((r) => [r.id, Number(r.seq)]));
}
