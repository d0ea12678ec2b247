import type { EntityManager } from 'typeorm';
import { isPostgres } from './sql.js';

/** Find options that lock the row for the transaction where that is needed: SQLite's one writer already holds it. */
export const rowLock = (em: EntityManager): { lock?: { mode: 'pessimistic_write' } } =>
  isPostgres(em) ? { lock: { mode: 'pessimistic_write' } } : {};

/**
 * As `rowLock`, for a row other statements of the same transactions reference by foreign key: FOR
 * NO KEY UPDATE does not wait for the KEY SHARE locks those inserts take, so two of them never deadlock.
 */
export const rowLockNoKey = (em: EntityManager): { lock?: { mode: 'for_no_key_update' } } =>
  isPostgres(em) ? { lock: { mode: 'for_no_key_update' } } : {};
