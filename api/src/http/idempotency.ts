/**
 * Idempotency-Key for money-moving requests: a repeat of a key by the same user answers the
 * first stored answer (status and body) and does no work.
 *
 * The key's row is inserted first, inside the same transaction as the work, and its answer is
 * written before commit, so an answer is stored exactly when the work committed. A racing
 * repeat blocks on the unique (user_id, key) index until the first transaction ends (PostgreSQL)
 * or waits its turn (SQLite's serialised transactions); it then hits the unique violation, rolls
 * back, and replays the stored answer. Work that fails (a 4xx) stores nothing: nothing moved,
 * and a retry with the same key is evaluated afresh. Reusing a key for another scope or another
 * input is refused with 422.
 *
 * Work with a slow outside call in the middle (a payment provider, which must never run inside a
 * transaction) uses `withIdempotentSteps`, the same mechanism in two transactions: the first
 * inserts the key's row with no answer yet (status 0) along with what is about to happen, the
 * outside call runs, and the settling transaction writes the work's result (`completeIdempotencyRecord`),
 * which the route presents, first and for every repeat,
 * or, when the work failed and nothing moved for good, removes the row (`forgetIdempotencyRecord`)
 * so a retry is evaluated afresh. A repeat that finds the row without an answer waits for it.
 */
import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { AppError, badRequest, isUniqueViolation } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { IdempotencyRecordEntity, type IdempotencyRecord } from './idempotency-entity.js';
import { appendedRowId } from '../db/ids.js';

export interface Answer<T> {
  status: number;
  body: T;
}

/** An answer with what to publish once it has committed: never stored, so a replay publishes nothing again. */
export type AnswerAndEvents<T, E> = Answer<T> & { events?: readonly E[] };

export interface IdempotentAnswer<T> extends Answer<T> {
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

export interface IdempotentRequest {
  /** The Idempotency-Key header; without one the work simply runs once in a transaction. */
  key: string | undefined;
  userId: string;
  /** What the key is used for, e.g. `wallet.deposit`. */
  scope: string;
  /** The request's parsed input; a repeat with other input is refused. */
  input?: unknown;
  /** The work may run again after a rollback (db.transaction's `replayable`); the key's own writes may. */
  replayable?: boolean;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The request's Idempotency-Key (1-255 visible characters), or undefined when absent. */
export function readIdempotencyKey(ctx: AppContext): string | undefined {
  const raw = ctx.get(IDEMPOTENCY_HEADER);
  if (raw === '') return undefined;
  const key = raw.trim();
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key))
    throw badRequest('Idempotency-Key must be 1-255 visible characters.', 'invalid_idempotency_key');
  return key;
}

const keyReused = () => new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request.');

function hashInput(scope: string, input: unknown): string {
  return crypto
    .createHash('sha256')
    .update(scope)
    .update('\0')
    .update(JSON.stringify(input ?? null))
    .digest('hex');
}

/** The stored answer, once what it answers for is durable (a read can see a commit before its flush: db.whenDurable). */
async function replay<T>(db: Database, record: IdempotencyRecord, scope: string, requestHash: string): Promise<IdempotentAnswer<T>> {
  if (record.scope !== scope || record.requestHash !== requestHash) throw keyReused();
  await db.whenDurable();
  return { status: record.status, body: JSON.parse(record.response ?? 'null') as T, replayed: true };
}

function findRecord(db: Database, userId: string, key: string): Promise<IdempotencyRecord | null> {
  return db.manager.findOneBy(IdempotencyRecordEntity, { userId, key });
}

/** A record of a request still under way (its answer not yet written). */
const PENDING = 0;
/** A stepwise request's record once its work settled: it keeps the work's result, presented again for a repeat. */
const SETTLED = 1;

function newRecord(userId: string, key: string, scope: string, requestHash: string): IdempotencyRecord {
  return { id: appendedRowId(), userId, key, scope, requestHash, status: PENDING, response: null, createdAt: new Date() };
}

/**
 * Runs `work` in one transaction (`db.transaction`), at most once per (user, key): a repeat of
 * the key answers the stored answer of the first successful run.
 */
export async function withIdempotency<T, E = never>(
  db: Database,
  request: IdempotentRequest,
  work: (em: EntityManager) => Promise<AnswerAndEvents<T, E>>,
): Promise<IdempotentAnswer<T> & { events?: readonly E[] }> {
  const { key, userId, scope } = request;
  const options = { replayable: request.replayable };
  if (key === undefined) return { ...(await db.transaction(work, options)), replayed: false };
  const requestHash = hashInput(scope, request.input);

  const earlier = await findRecord(db, userId, key);
  if (earlier) return replay<T>(db, earlier, scope, requestHash);
  try {
    return await db.transaction(async (em) => {
      const { id, ...rest } = newRecord(userId, key, scope, requestHash);
      await em.insert(IdempotencyRecordEntity, { id, ...rest });
      const answer = await work(em);
      await em.update(IdempotencyRecordEntity, { id }, { status: answer.status, response: JSON.stringify(answer.body) });
      return { ...answer, replayed: false };
    }, options);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const first = await findRecord(db, userId, key);
    if (!first) throw err;
    return replay<T>(db, first, scope, requestHash);
  }
}

/** How long a repeat waits for the answer of the request still under way with its key. */
const WAIT_FOR_ANSWER_MS = 15_000;
const inProgress = () =>
  new AppError(
    409,
    'idempotency_key_in_progress',
    'A request with this Idempotency-Key is still being processed. Please try again shortly.',
  );

/**
 * Like `withIdempotency`, for work whose middle must run outside any transaction:
 * `begin(em, recordId)` runs in the first transaction with the key's row (recordId is null without
 * a key) and records what is about to happen; `finish(begun)` then runs outside any transaction
 * (the outside call, then its own settling transaction, which writes the answer with
 * `completeIdempotencyRecord(em, recordId, answer)` or removes the row with
 * `forgetIdempotencyRecord` when nothing happened). A repeat of the key while the first is under
 * way waits for its answer (409 `idempotency_key_in_progress` after 15 s); a repeat after the row
 * was removed runs afresh.
 */
export async function withIdempotentSteps<B, R, T>(
  db: Database,
  request: IdempotentRequest,
  begin: (em: EntityManager, recordId: string | null) => Promise<B>,
  finish: (begun: B) => Promise<R>,
  present: (result: R) => Answer<T>,
): Promise<IdempotentAnswer<T>> {
  const { key, userId, scope } = request;
  if (key === undefined) return { ...present(await finish(await db.transaction((em) => begin(em, null)))), replayed: false };
  const requestHash = hashInput(scope, request.input);
  const deadline = Date.now() + WAIT_FOR_ANSWER_MS;

  for (;;) {
    const earlier = await findRecord(db, userId, key);
    if (earlier) {
      if (earlier.scope !== scope || earlier.requestHash !== requestHash) throw keyReused();
      if (earlier.status !== PENDING) return replaySettled(db, earlier, scope, requestHash, present);
      if (Date.now() > deadline) throw inProgress();
      await new Promise((resolve) => setTimeout(resolve, 25));
      continue;
    }
    let begun: B;
    try {
      begun = await db.transaction(async (em) => {
        const record = newRecord(userId, key, scope, requestHash);
        await em.insert(IdempotencyRecordEntity, { ...record });
        return begin(em, record.id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) continue; // a racing first request holds the key: wait for its answer
      throw err;
    }
    return { ...present(await finish(begun)), replayed: false };
  }
}

/** A repeat of a settled stepwise request: its result presented again (an answer stored whole, before results were kept, as it is). */
async function replaySettled<R, T>(
  db: Database,
  record: IdempotencyRecord,
  scope: string,
  requestHash: string,
  present: (result: R) => Answer<T>,
): Promise<IdempotentAnswer<T>> {
  if (record.status !== SETTLED) return replay<T>(db, record, scope, requestHash);
  const stored = await replay<R>(db, record, scope, requestHash);
  return { ...present(stored.body), replayed: true };
}

/** Writes the result of a `withIdempotentSteps` request's work, inside the transaction that settles it. */
export async function completeIdempotencyRecord(em: EntityManager, recordId: string | null, result: unknown): Promise<void> {
  if (!recordId) return;
  await em.update(IdempotencyRecordEntity, { id: recordId }, { status: SETTLED, response: JSON.stringify(result) });
}

/** Removes a `withIdempotentSteps` request's key when its work failed and moved nothing for good: a retry runs afresh. */
export async function forgetIdempotencyRecord(em: EntityManager, recordId: string | null): Promise<void> {
  if (!recordId) return;
  await em.delete(IdempotencyRecordEntity, { id: recordId });
}
