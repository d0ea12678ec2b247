import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { PRIVATE_FILE_MODE } from '../files.js';
import { sqliteFile, type Schema } from '../db/index.js';
import { syncFile } from '../db/wal-file.js';
import { LEFT_OUT, fail, readFacts, type Facts } from './manifest.js';

export const SQLITE_COPY = 'giftlink.sqlite';

/**
 * Copies the live database into `file` with SQLite's online backup API, from a connection of its
 * own beside the running server's. The pages after the first step go in one step, that is one read
 * transaction: a snapshot of what had committed when it began, whatever the server writes meanwhile
 * (a step interrupted by another connection's write would start the copy over).
 */
export async function copySqlite(config: Config, file: string): Promise<void> {
  const live = sqliteFile(config);
  if (!fs.existsSync(live)) fail(`DATA_DIR=${config.dataDir} holds no database (${path.basename(live)}): nothing to back up`);
  const source = new BetterSqlite3(live, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(file, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  // One file, no WAL beside it: what the checksum covers is the whole database.
  const copy = new BetterSqlite3(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    for (const table of LEFT_OUT) copy.exec(`DELETE FROM ${table}`);
    // Rewritten, so no free page keeps a left-out row.
    copy.exec('VACUUM');
  } finally {
    copy.close();
  }
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  await syncFile(file);
}

/** `PRAGMA integrity_check` on `file`, then the ledger's invariants and the counts: fails saying what is wrong. */
export async function checkSqlite(file: string, schema: Schema, what: string): Promise<Facts> {
  let problems: string[];
  try {
    const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    try {
      problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } finally {
      db.close();
    }
  } catch (err) {
    return fail(`${what} cannot be read as a SQLite database: ${(err as Error).message}`);
  }
  if (problems.join() !== 'ok') fail(`${what} fails PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`);
  const source = new DataSource({ type: 'better-sqlite3', database: file, entities: schema.entities, readonly: true });
  try {
    await source.initialize();
    return await readFacts(source.manager, what);
  } finally {
    if (source.isInitialized) await source.destroy();
  }
}

/** Puts the backup's database in DATA_DIR: under another name first, so a half-copied one is never taken for it. */
export async function putSqlite(file: string, config: Config): Promise<void> {
  const target = sqliteFile(config);
  const partial = path.join(config.dataDir, `.${path.basename(target)}.restoring`);
  await fs.promises.copyFile(file, partial);
  await fs.promises.chmod(partial, PRIVATE_FILE_MODE);
  await syncFile(partial);
  await fs.promises.rename(partial, target);
  await syncFile(config.dataDir);
}
