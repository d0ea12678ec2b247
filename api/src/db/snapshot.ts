import type { EntityManager } from 'typeorm';
import { isPostgres } from './sql.js';

/**
 * Runs `reads`' statements on one snapshot, so what they read agrees though writers commit
 * between them: a REPEATABLE READ transaction on PostgreSQL, unless `em` is in one already. SQLite
 * has one connection, whose transactions the writers share, so its reads run as they are.
 */
export function onOneSnapshot<T>(em: EntityManager, reads: (em: EntityManager) => Promise<T>): Promise<T> {
  return isPostgres(em) && !em.queryRunner?.isTransactionActive ? em.transaction('REPEATABLE READ', reads) : reads(em);
}
