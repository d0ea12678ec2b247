import type BetterSqlite3 from 'better-sqlite3';
import type { PoolClient } from 'pg';
import { QueryFailedError, type EntityManager, type EntitySchema } from 'typeorm';
import { dateParam } from './dates.js';
import type { Database } from './index.js';
import { sqliteHandle } from './sqlite-handle.js';

/**
 * Prepared statements for hot write paths (a give is a dozen statements), run inside
 * the caller's `db.transaction`. A statement is written once for both databases, with `$1…$n`
 * placeholders and no casts, and prepared once per connection, then reused:
 *
 * - SQLite: prepared on the writer's better-sqlite3 handle (the queued transaction runs on it) and
 *   run synchronously; each `$n` is prepared as a `?` and bound from the argument list.
 * - PostgreSQL: a named prepared statement on the transaction's connection, parsed and planned once
 *   per pooled connection.
 *
 * Values: a Date binds as TypeORM stores it (UTC text on SQLite), a boolean as 0/1 on SQLite.
 * Rows come back raw: snake_case columns, bigints as strings on PostgreSQL (`Number()` them), dates
 * as text on SQLite (`dateFrom`). Errors are TypeORM's `QueryFailedError`, as the query builder's.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export type SqlValue = string | number | boolean | Date | null;

export interface Outcome<T> {
  /** RETURNING rows (or a SELECT's). */
  rows: T[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

let statements = 0;

/** A statement for `run`. Define it once, at module level: each one is prepared once per connection. */
export function sql(text: string): Statement {
  return { name: `giftlink_${++statements}`, text };
}

/**
 * A statement prepared on SQLite with its `$n` placeholders written as `?`, and which `$n` each
 * `?` stands for: better-sqlite3 binds `?`s from an argument list, where it looks each named
 * parameter up on an object.
 */
interface SqliteStatement {
  prepared: BetterSqlite3.Statement;
  /** The index in `params` of each `?`, in order. */
  order: number[];
}

const prepared = new WeakMap<BetterSqlite3.Database, Map<Statement, SqliteStatement>>();

function sqliteStatement(conn: BetterSqlite3.Database, statement: Statement): SqliteStatement {
  let cache = prepared.get(conn);
  if (!cache) prepared.set(conn, (cache = new Map()));
  let s = cache.get(statement);
  if (!s) {
    const { text, order } = positional(statement.text);
    cache.set(statement, (s = { prepared: conn.prepare(text), order }));
  }
  return s;
}

/** `$n` outside quotes becomes `?`; answers the text and, for each `?`, n - 1. */
export function positional(text: string): { text: string; order: number[] } {
  const order: number[] = [];
  const out = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => {
    if (n === undefined) return match;
    order.push(Number(n) - 1);
    return '?';
  });
  return { text: out, order };
}

export const isPostgres = (em: EntityManager) => em.connection.driver.options.type === 'postgres';

/** Runs `statement` with `params` ($1 is params[0]) in `em`'s transaction. */
export async function run<T = Record<string, unknown>>(
  em: EntityManager,
  statement: Statement,
  params: readonly SqlValue[],
): Promise<Outcome<T>> {
  const runner = em.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('sql: run it inside db.transaction');
  if (isPostgres(em)) {
    // Sent at once when the transaction holds its connection (it always does once begun): statements
    // a transaction starts together go out together, in the order they were started (pg-transaction.ts).
    const client =
      (runner as unknown as { databaseConnection?: PoolClient }).databaseConnection ?? ((await runner.connect()) as PoolClient);
    try {
      const result = await client.query<T & object>({ name: statement.name, text: statement.text, values: [...params] });
      return { rows: result.rows, changes: result.rowCount ?? 0 };
    } catch (err) {
      throw new QueryFailedError(statement.text, [...params], err as Error);
    }
  }
  const conn = sqliteHandle(em.connection);
  try {
    const { prepared: s, order } = sqliteStatement(conn, statement);
    const bound = sqliteParams(em, params, order);
    if (s.reader) {
      const rows = s.all(...bound) as T[];
      return { rows, changes: rows.length };
    }
    return { rows: [], changes: s.run(...bound).changes };
  } catch (err) {
    throw new QueryFailedError(statement.text, [...params], err as Error);
  }
}

/**
 * Runs a read-only `statement` outside any transaction, on committed data only: on SQLite's read
 * connection; on PostgreSQL on the read connections, which send the reads every request starts in
 * one turn of the event loop in one write (pg-reads.ts).
 */
export async function read<T = Record<string, unknown>>(db: Database, statement: Statement, params: readonly SqlValue[]): Promise<T[]> {
  const em = db.manager;
  try {
    if (db.pgReads) return await db.pgReads.query<T>(statement, params);
    const conn = sqliteHandle(em.connection);
    const { prepared: s, order } = sqliteStatement(conn, statement);
    return s.all(...sqliteParams(em, params, order)) as T[];
  } catch (err) {
    throw new QueryFailedError(statement.text, [...params], err as Error);
  }
}

/** The values of the `?`s, in `order`; Dates and booleans as TypeORM stores them. */
function sqliteParams(em: EntityManager, params: readonly SqlValue[], order: readonly number[]): (string | number | null)[] {
  return order.map((i) => {
    const p = params[i];
    if (p === undefined) throw new RangeError(`sql: no value for $${i + 1}`);
    return p instanceof Date ? (dateParam(em, p) as string) : typeof p === 'boolean' ? (p ? 1 : 0) : p;
  });
}

/** A date column of a raw row: a Date on PostgreSQL, TypeORM's UTC text on SQLite. */
export function dateFrom(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(`${String(value).replace(' ', 'T')}Z`);
}

/**
 * A raw row (`SELECT *` of the entity's table) as TypeORM hydrates it: each column through the
 * driver's own conversion and the column's transformers, so dates, booleans and cents come back
 * exactly as `findOneBy` would give them, on either database.
 */
export function hydrate<T>(db: Database, entity: EntitySchema<T>, row: Record<string, unknown>): T {
  const metadata = db.source.getMetadata(entity);
  const driver = db.source.driver;
  const out = metadata.create() as T & object;
  for (const column of metadata.columns) {
    const value = row[column.databaseName];
    if (value !== undefined) column.setEntityValue(out, driver.prepareHydratedValue(value, column));
  }
  return out;
}
