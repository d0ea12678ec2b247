import type { EntityManager } from 'typeorm';

/**
 * A Date as a query parameter: TypeORM stores dates on SQLite as UTC 'YYYY-MM-DD HH:MM:SS.SSS'
 * text (better-sqlite3 cannot bind a Date), and PostgreSQL takes the Date itself.
 */
export function dateParam(em: EntityManager, date: Date): Date | string {
  if (em.dataSource.driver.options.type === 'postgres') return date;
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
