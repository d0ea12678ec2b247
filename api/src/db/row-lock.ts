import type { EntityManager } from 'typeorm';
import { isPostgres } from './sql.js';

/** Find options that lock the row for the transaction where that is needed: SQLite's one writer already holds it. */
export const rowLock = (em: EntityManager): { lock?: { mode: 'pessimistic_write' } } =>
  isPostgres(em) ? { lock: { mode: 'pessimistic_write' } } : {};
