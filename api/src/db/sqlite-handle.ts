import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';

/**
 * The better-sqlite3 handle under a SQLite DataSource (TypeORM keeps it as the driver's
 * `databaseConnection`): for statements prepared once and run synchronously on it (db/sql.ts,
 * the group committer's savepoints, the chat's batches).
 */
export const sqliteHandle = (source: DataSource): BetterSqlite3.Database =>
  (source.driver as unknown as { databaseConnection: BetterSqlite3.Database }).databaseConnection;
