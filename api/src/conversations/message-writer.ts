import type BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { canReach } from './policy.js';
import type { Database } from '../db/index.js';
import { dateParam } from '../db/dates.js';
import type { Message } from './entity.js';
import { lockMembersSql } from './member-locks.js';
import { sqliteHandle } from '../db/sqlite-handle.js';

/**
 * Group commit for normal messages (issue 15). Every `sendMessage` hands its row to the writer of
 * its process; the rows that arrive while the writer is idle in the same tick, or while a batch is
 * committing, are written together in ONE transaction, so a commit (and its fsync) serves many
 * messages. Each caller's promise settles only after that transaction has committed: a message is
 * durable before it is acknowledged or published.
 *
 * In the batch's transaction, for each message in arrival order: refuse it if the other member has
 * blocked the sender in this conversation (`blocks`, read in the same transaction as before; only
 * that message is refused), insert it and make it its conversation's last message.
 * - SQLite (one writer, one connection): prepared statements on the writer connection, inside the
 *   queued transaction; the batch takes its numbers from the `message_seq` counter in one update.
 * - PostgreSQL: one statement (block check, numbers, insert and the conversations' last messages
 *   in data-changing CTEs), which is a transaction of its own: one round trip, answering the
 *   numbers. It locks its messages' members before it takes numbers from the sequence and holds
 *   them until its commit is durable, so each member's numbers follow commit order as a gift's do
 *   (member-locks.ts).
 * A batch that fails (a deadlock with another process, say) is written again one message at a
 * time, so one message's failure is only its own. (On SQLite the batches queued after it have
 * taken their numbers by then: numbers still follow commit order.)
 */

/** A normal message to write, and who must not have blocked its sender. */
export interface PendingMessage {
  row: Message;
  recipientId: string;
}

/** The written message, or `blocked` when its recipient has blocked its sender (nothing stored). */
export type WriteResult = Message | 'blocked';

interface Waiting extends PendingMessage {
  resolve: (result: WriteResult) => void;
  reject: (err: unknown) => void;
}

/** The most messages one transaction writes (PostgreSQL's parameters are arrays: no limit there). */
const MAX_BATCH = 256;
/** Batches under way at once: a guard, since each batch starts only once the previous one has committed. */
const MAX_IN_FLIGHT = 4;

export class MessageWriter {
  private queue: Waiting[] = [];
  private draining = false;
  private inFlight = 0;
  private slotFreed?: () => void;

  /** Per conversation, the turn of the latest send that has not reached the queue yet. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly db: Database) {}

  /**
   * Keeps the messages of one conversation in the order their sends began, whatever the checks
   * before the write take (a cache miss, a Redis round trip): take a turn synchronously when the
   * send begins, await `ready` just before `write`, and `release` right after it (or on failure;
   * releasing twice is harmless). Only sends of the same conversation wait for each other.
   */
  turn(conversationId: string): { ready: Promise<void>; release: () => void } {
    const ready = this.turns.get(conversationId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.turns.set(conversationId, mine);
    return {
      ready,
      release: () => {
        release();
        if (this.turns.get(conversationId) === mine) this.turns.delete(conversationId);
      },
    };
  }

  /** Resolves once the message's transaction has committed. */
  write(message: PendingMessage): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ ...message, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // Messages that arrive in the same tick (one socket read holds several) join this batch.
      setImmediate(() => void this.drain());
    });
  }

  /**
   * Starts one batch after another, so a later batch is numbered after it: on PostgreSQL the next
   * one once the previous one has committed, on SQLite once it is queued with the writer, which
   * runs transactions in the order asked. Meanwhile new messages queue up for the next one.
   */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        if (this.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => (this.slotFreed = resolve));
        const batch = this.queue.splice(0, MAX_BATCH);
        this.inFlight += 1;
        await new Promise<void>((started) => {
          void this.commit(batch, started).finally(() => {
            started();
            this.inFlight -= 1;
            this.slotFreed?.();
            this.slotFreed = undefined;
          });
        });
      }
    } finally {
      this.draining = false;
    }
  }

  private async commit(batch: Waiting[], started: () => void): Promise<void> {
    let results: WriteResult[];
    try {
      results = await writeBatch(this.db, batch, started);
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const one of batch) await this.commit([one], () => undefined);
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]));
  }
}

const writers = new WeakMap<Database, MessageWriter>();

/** This process's writer for `db`. */
export function messageWriter(db: Database): MessageWriter {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new MessageWriter(db)));
  return writer;
}

/** Writes the batch in one transaction; `started` is called once the next batch may start (see `drain`). */
async function writeBatch(db: Database, batch: readonly PendingMessage[], started: () => void): Promise<WriteResult[]> {
  if (!db.isPostgres) {
    // Replayable: the work only reads and writes the database and answers what it wrote. So it runs
    // in the writer's open transaction while the last COMMIT's flush waits for the disk, beside
    // the gives (group-commit.ts); and the next batch may start at once: the writer runs the
    // transactions in the order asked, so it is numbered after this one all the same.
    const written = db.transaction(async (em) => writeSqlite(em, batch), { replayable: true });
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
 * of the batch's messages are locked first, as a gift locks its two (member-locks.ts), then its
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
     )
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
