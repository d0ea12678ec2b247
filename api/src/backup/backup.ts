import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { makePrivateDir } from '../files.js';
import { sqliteFile, type Schema } from '../db/index.js';
import { syncFile } from '../db/wal-file.js';
import {
  backupName,
  copyFilesIn,
  copyFilesOut,
  expectEmptyDataDir,
  expectFacts,
  fail,
  knownMigration,
  readVerifiedManifest,
  sha256,
  writeManifest,
  backupKeys,
  type BackupKeys,
  type Facts,
  type Manifest,
} from './manifest.js';
import { PG_DUMP, dumpPostgres, listArchive, restorePostgres } from './postgres.js';
import { SQLITE_COPY, checkSqlite, copySqlite, putSqlite } from './sqlite.js';
import { reconcileBackup } from './reconcile.js';

/** Where backups go unless told: beside the data they copy, so move them off the machine. */
export const defaultBackupsDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'backups');

/**
 * Writes a backup of the configured database (without its sessions and push devices) and DATA_DIR's
 * uploads and secrets (sealed with BACKUP_KEY) into a new directory under `outDir`, with a manifest
 * signed with BACKUP_KEY, checks it, and answers its path. SQLite: the online backup API, then
 * `PRAGMA integrity_check` and the ledger's invariants on the copy. PostgreSQL: `pg_dump -Fc` of a
 * snapshot the invariants were checked in. Written as `<name>.partial`, renamed once checked (and
 * removed when a check fails): a directory without the suffix is a backup that passed.
 */
export async function createBackup(
  config: Config,
  schema: Schema,
  outDir = defaultBackupsDir(config),
  starting: (line: string) => void = () => undefined,
): Promise<string> {
  const startedAt = new Date();
  const keys = backupKeys(config);
  makePrivateDir(outDir);
  const final = path.join(path.resolve(outDir), backupName(startedAt));
  const dir = `${final}.partial`;
  makePrivateDir(dir, { always: true });
  try {
    starting(`Backing up ${config.databaseUrl ? 'the PostgreSQL database' : `DATA_DIR=${config.dataDir}`} into ${dir}`);
    await writeBackup(config, schema, dir, startedAt, keys, starting);
  } catch (err) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw err;
  }
  await fs.promises.rename(dir, final);
  await syncFile(path.dirname(final));
  return final;
}

async function writeBackup(
  config: Config,
  schema: Schema,
  dir: string,
  startedAt: Date,
  keys: BackupKeys,
  starting: (line: string) => void,
): Promise<void> {
  let facts: Facts;
  let database: string;
  if (config.databaseUrl) {
    database = PG_DUMP;
    facts = await dumpPostgres(config.databaseUrl, path.join(dir, PG_DUMP), schema);
  } else {
    database = SQLITE_COPY;
    await copySqlite(config, path.join(dir, SQLITE_COPY));
    facts = await checkSqlite(path.join(dir, SQLITE_COPY), schema, `the copy (${path.join(dir, SQLITE_COPY)})`);
  }
  const differences = await reconcileBackup(config, schema, config.databaseUrl ? null : path.join(dir, SQLITE_COPY));
  starting(
    differences.length
      ? `Reconciliation: the payment provider's records and the ledger differ (${differences.length}):\n${differences.join('\n')}`
      : "Reconciliation: every card payment the provider took has its credit in the ledger, and every credit its payment; every withdrawal the ledger sent has the provider's transfer, and every transfer its withdrawal",
  );
  const copied = await copyFilesOut(config, dir, keys);
  const files: Record<string, string> = {};
  for (const file of [database, ...copied]) files[file] = await sha256(path.join(dir, file));
  const manifest: Manifest = {
    format: 2,
    salt: keys.salt,
    database: config.databaseUrl ? 'postgresql' : 'sqlite',
    createdAt: startedAt.toISOString(),
    ...facts,
    files,
  };
  await writeManifest(dir, manifest, keys);
  await syncFile(dir);
}

/** The checks a backup passes before anything of it is restored; answers its manifest and keys. */
export async function verifyBackup(
  dir: string,
  schema: Schema,
  config: Pick<Config, 'backupKey'>,
): Promise<{ manifest: Manifest; keys: BackupKeys }> {
  const { manifest, keys } = await readVerifiedManifest(dir, config);
  knownMigration(schema, manifest.migration);
  if (manifest.database === 'sqlite') {
    if (!manifest.files[SQLITE_COPY]) fail(`The manifest lists no ${SQLITE_COPY}: the backup is incomplete`);
    expectFacts(await checkSqlite(path.join(dir, SQLITE_COPY), schema, `the backup's database`), manifest, `the backup's database`);
  } else {
    if (!manifest.files[PG_DUMP]) fail(`The manifest lists no ${PG_DUMP}: the backup is incomplete`);
    await listArchive(path.join(dir, PG_DUMP));
  }
  return { manifest, keys };
}

/**
 * Restores the backup in `dir` into the configured, empty DATA_DIR (and, for a PostgreSQL backup,
 * the empty database DATABASE_URL names): checks the backup, copies it in, and checks the restored
 * database again. Answers what it restored.
 */
export async function restoreBackup(config: Config, schema: Schema, dir: string): Promise<Manifest> {
  const { manifest, keys } = await verifyBackup(path.resolve(dir), schema, config);
  if (manifest.database === 'postgresql' && !config.databaseUrl)
    fail('This backup is of a PostgreSQL database: set DATABASE_URL to the empty database to restore it into');
  if (manifest.database === 'sqlite' && config.databaseUrl)
    fail('This backup is of a SQLite database: unset DATABASE_URL to restore it into DATA_DIR');
  const live = path.basename(sqliteFile(config));
  expectEmptyDataDir(config, manifest.database === 'sqlite' ? [live, `${live}-wal`] : []);
  makePrivateDir(config.dataDir);
  if (manifest.database === 'sqlite') {
    // The database last: its presence says the restore is complete.
    await copyFilesIn(manifest, dir, config, keys);
    await putSqlite(path.join(dir, SQLITE_COPY), config);
    expectFacts(await checkSqlite(sqliteFile(config), schema, 'the restored database'), manifest, 'the restored database');
  } else {
    // The database first: one that is not empty is refused before DATA_DIR is touched.
    const facts = await restorePostgres(config.databaseUrl!, path.join(dir, PG_DUMP), schema);
    await copyFilesIn(manifest, dir, config, keys);
    expectFacts(facts, manifest, 'the restored database');
  }
  return manifest;
}
