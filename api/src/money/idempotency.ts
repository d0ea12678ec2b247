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
 */
import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { AppError, badRequest, isUniqueViolation } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { IdempotencyRecordEntity, type IdempotencyRecord } from './entities.js';

export interface Answer<T> {
  status: number;
  body: T;
}

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

function replay<T>(record: IdempotencyRecord, scope: string, requestHash: string): IdempotentAnswer<T> {
  if (record.scope !== scope || record.requestHash !== requestHash) throw keyReused();
  return { status: record.status, body: JSON.parse(record.response ?? 'null') as T, replayed: true };
}

function findRecord(db: Database, userId: string, key: string): Promise<IdempotencyRecord | null> {
  return db.manager.findOneBy(IdempotencyRecordEntity, { userId, key });
}

/**
 * Runs `work` in one transaction (`db.transaction`), at most once per (user, key): a repeat of
 * the key answers the stored answer of the first successful run.
 */
export async function withIdempotency<T>(
  db: Database,
  request: IdempotentRequest,
  work: (em: EntityManager) => Promise<Answer<T>>,
): Promise<IdempotentAnswer<T>> {
  const { key, userId, scope } = request;
  if (key === undefined) return { ...(await db.transaction(work)), replayed: false };
  const requestHash = hashInput(scope, request.input);

  const earlier = await findRecord(db, userId, key);
  if (earlier) return replay<T>(earlier, scope, requestHash);
  try {
    return await db.transaction(async (em) => {
      const id = crypto.randomUUID();
      await em.insert(IdempotencyRecordEntity, {
        id,
        userId,
        key,
        scope,
        requestHash,
        status: 0,
        response: null,
        createdAt: new Date(),
      });
      const answer = await work(em);
      await em.update(IdempotencyRecordEntity, { id }, { status: answer.status, response: JSON.stringify(answer.body) });
      return { ...answer, replayed: false };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const first = await findRecord(db, userId, key);
    if (!first) throw err;
    return replay<T>(first, scope, requestHash);
  }
}
