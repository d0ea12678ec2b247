import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { PRIVATE_FILE_MODE } from '../files.js';
import type { Schema } from '../db/index.js';
import { syncFile } from '../db/wal-file.js';
import { LEFT_OUT, fail, readFacts, type Facts } from './manifest.js';

export const PG_DUMP = 'giftlink.pgdump';
const run = promisify(execFile);

/** libpq's arguments for `url`: the password goes in the environment, never on a command line others can read. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function tool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return (await run(name, args, { env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') fail(`${name} is not installed: install PostgreSQL's client tools (the server's major version)`);
    return fail(`${name} failed: ${(e.stderr ?? e.message).trim().split('\n').slice(0, 5).join(' | ')}`);
  }
}

function source(url: string, schema: Schema): DataSource {
  return new DataSource({ type: 'postgres', url, entities: schema.entities, extra: { max: 2 } });
}

/**
 * `pg_dump -Fc` of the database into `file`, from a snapshot the ledger's invariants and the counts
 * were read in (pg_export_snapshot): the dump holds exactly what was checked. Then `pg_restore
 * --list` reads the archive back.
 */
export async function dumpPostgres(url: string, file: string, schema: Schema): Promise<Facts> {
  const db = source(url, schema);
  await db.initialize();
  const runner = db.createQueryRunner();
  try {
    await runner.connect();
    await runner.startTransaction('REPEATABLE READ');
    const [{ snapshot }] = (await runner.query('SELECT pg_export_snapshot() AS snapshot')) as { snapshot: string }[];
    const facts = await readFacts(runner.manager, 'the database');
    const { dbname, env } = connection(url);
    const leftOut = LEFT_OUT.map((table) => `--exclude-table-data=${table}`);
    await tool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, ...leftOut, `--file=${file}`, `--dbname=${dbname}`], env);
    await runner.commitTransaction();
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    await syncFile(file);
    await listArchive(file);
    return facts;
  } finally {
    await runner.release();
    await db.destroy();
  }
}

/** The archive's table of contents reads back, and it is one of a database with a ledger. */
export async function listArchive(file: string): Promise<void> {
  const list = await tool('pg_restore', ['--list', file], process.env);
  if (!/ TABLE [^\n]* ledger_entries /.test(list)) fail(`${file} holds no ledger_entries table: not a dump of a Giftlink database`);
}

/** Refuses a database that holds any table: a restore never mixes two. */
export async function expectEmptyPostgres(url: string): Promise<void> {
  const db = new DataSource({ type: 'postgres', url, extra: { max: 1 } });
  await db.initialize();
  try {
    const [{ n }] = (await db.query(
      "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    )) as { n: string }[];
    if (Number(n) > 0)
      fail(`The database DATABASE_URL names already holds ${n} tables: restore into an empty database (createdb a new one)`);
  } finally {
    await db.destroy();
  }
}

/**
 * `pg_restore` of the dump into the empty database at `url`, in one transaction (all of it or
 * nothing), then the ledger's invariants and the counts read from the restored database.
 */
export async function restorePostgres(url: string, file: string, schema: Schema): Promise<Facts> {
  await expectEmptyPostgres(url);
  const { dbname, env } = connection(url);
  await tool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file], env);
  const db = source(url, schema);
  await db.initialize();
  try {
    return await readFacts(db.manager, 'the restored database');
  } finally {
    await db.destroy();
  }
}
