import type { EntityManager } from 'typeorm';

/**
 * A Date as a query parameter: TypeORM stores dates on SQLite as UTC 'YYYY-MM-DD HH:MM:SS.SSS'
 * text (better-sqlite3 cannot bind a Date), and PostgreSQL takes the Date itself.
 */
export function dateParam(em: EntityManager, date: Date): Date | string {
  if (em.dataSource.driver.options.type === 'postgres') return date;
  return sqliteDate(date);
}

/** The last date formatted: a give binds the same moment in most of its dozen statements. */
const last = { time: NaN, text: '' };

/** TypeORM's SQLite text of `date`: '2026-11-27 14:03:05.123'. */
function sqliteDate(date: Date): string {
  const time = date.getTime();
  if (time !== last.time) {
    const iso = date.toISOString();
    // Years before 0 or after 9999 have six digits and a sign.
    last.text = iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : iso.replace('T', ' ').replace('Z', '');
    last.time = time;
  }
  return last.text;
}
