import type { Database } from '../db/index.js';
import { writeBatch, type PendingMessage, type WriteResult } from './message-store.js';

/**
 * Group commit for normal messages. Every `sendMessage` hands its row to the writer of
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
 *   (member-locks-store.ts).
 * A batch that fails (a deadlock with another process, say) is written again one message at a
 * time, so one message's failure is only its own. (On SQLite the batches queued after it have
 * taken their numbers by then: numbers still follow commit order.) The statements are in
 * message-store.ts.
 */

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
