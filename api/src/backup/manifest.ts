import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { ConfigError, type Config } from '../config.js';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../files.js';
import { syncFile } from '../db/wal-file.js';
import type { Schema } from '../db/index.js';
import { ledgerInvariants, ledgerProblems } from '../money/ledger.js';
import { uploadsDir } from '../uploads/service.js';

/** The files DATA_DIR holds beside the database that a restored server needs: its generated JWT and VAPID secrets. */
export const SECRETS = ['jwt-secret', 'vapid.json'] as const;
export const MANIFEST = 'manifest.json';
export const UPLOADS = 'uploads';

const Counts = z.object({ users: z.number(), ledgerTransfers: z.number(), ledgerEntries: z.number() });
export type Counts = z.infer<typeof Counts>;

const Manifest = z.object({
  format: z.literal(1),
  database: z.enum(['sqlite', 'postgresql']),
  createdAt: z.string(),
  /** The last migration the database had run: a restore refuses one this code does not know. */
  migration: z.string(),
  counts: Counts,
  /** Every file of the backup but this one, by its path inside the backup: its SHA-256, hex. */
  files: z.record(z.string(), z.string()),
});
export type Manifest = z.infer<typeof Manifest>;

/** What a backup is checked by, besides its checksums: read from a copy of the database, or the restored one. */
export interface Facts {
  migration: string;
  counts: Counts;
}

export function fail(message: string): never {
  throw new ConfigError(message);
}

/**
 * The ledger's invariants and the counts, read through `em` (a snapshot of the database, or a
 * copy): fails naming what is broken.
 */
export async function readFacts(em: EntityManager, what: string): Promise<Facts> {
  const problems = ledgerProblems(await ledgerInvariants({ manager: em }));
  if (problems.length) fail(`The ledger of ${what} is not sound: ${problems.join('; ')}`);
  const [last] = (await em.query('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1')) as { name: string }[];
  if (!last) fail(`${what} has run no migration: it is not a Giftlink database`);
  const count = async (table: string) => Number(((await em.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: number | string }[])[0].n);
  return {
    migration: last.name,
    counts: { users: await count('users'), ledgerTransfers: await count('ledger_transfers'), ledgerEntries: await count('ledger_entries') },
  };
}

/** The restored database holds what the backup said it held, and a migration this code knows. */
export function expectFacts(facts: Facts, manifest: Manifest, what: string): void {
  const want = JSON.stringify(manifest.counts);
  if (JSON.stringify(facts.counts) !== want) fail(`${what} holds ${JSON.stringify(facts.counts)}, the manifest says ${want}`);
  if (facts.migration !== manifest.migration) fail(`${what} is at migration ${facts.migration}, the manifest says ${manifest.migration}`);
}

export function knownMigration(schema: Schema, migration: string): void {
  if (!schema.migrations.some((m) => (new m().name ?? m.name) === migration))
    fail(`The backup's database is at migration ${migration}, which this Giftlink does not know: restore it with the version that made it`);
}

export async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A new backup's directory name under `out`: its start time, sortable. */
export const backupName = (startedAt: Date) => `giftlink-${startedAt.toISOString().replace(/[:.]/g, '-')}`;

/** Copies one owner-only file and flushes it to disk. */
async function copyPrivate(from: string, to: string): Promise<void> {
  await fs.promises.copyFile(from, to, fs.constants.COPYFILE_EXCL);
  await fs.promises.chmod(to, PRIVATE_FILE_MODE);
  await syncFile(to);
}

/**
 * Copies the uploads and the generated secrets of DATA_DIR into the backup `dir`; answers their
 * paths inside it. An upload stored after the database was copied is one no row names yet.
 */
export async function copyFilesOut(config: Config, dir: string): Promise<string[]> {
  const copied: string[] = [];
  const uploads = uploadsDir(config);
  const names = fs.existsSync(uploads) ? (await fs.promises.readdir(uploads, { withFileTypes: true })).filter((e) => e.isFile()) : [];
  makePrivateDir(path.join(dir, UPLOADS), { always: true });
  for (const { name } of names) {
    try {
      await copyPrivate(path.join(uploads, name), path.join(dir, UPLOADS, name));
      copied.push(`${UPLOADS}/${name}`);
    } catch (err) {
      // Removed since it was listed (a picture replaced): its row is gone too, or will be.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  for (const name of SECRETS)
    if (fs.existsSync(path.join(config.dataDir, name))) {
      await copyPrivate(path.join(config.dataDir, name), path.join(dir, name));
      copied.push(name);
    }
  await syncFile(path.join(dir, UPLOADS));
  return copied;
}

/** Copies the backup's uploads and secrets into DATA_DIR. */
export async function copyFilesIn(manifest: Manifest, dir: string, config: Config): Promise<void> {
  makePrivateDir(uploadsDir(config), { always: true });
  for (const file of Object.keys(manifest.files)) {
    const inUploads = file.startsWith(`${UPLOADS}/`);
    if (!inUploads && !(SECRETS as readonly string[]).includes(file)) continue;
    await copyPrivate(
      path.join(dir, file),
      inUploads ? path.join(uploadsDir(config), file.slice(UPLOADS.length + 1)) : path.join(config.dataDir, file),
    );
  }
  await syncFile(uploadsDir(config));
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const file = path.join(dir, MANIFEST);
  await fs.promises.writeFile(file, JSON.stringify(manifest, null, 2) + '\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  await syncFile(file);
}

/** The backup's manifest, with every file it lists present and unchanged; fails saying which is not. */
export async function readVerifiedManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(dir, MANIFEST), 'utf8');
  } catch {
    return fail(`${dir} is not a Giftlink backup: it has no ${MANIFEST}`);
  }
  let parsed: ReturnType<typeof Manifest.safeParse>;
  try {
    parsed = Manifest.safeParse(JSON.parse(text));
  } catch {
    return fail(`${path.join(dir, MANIFEST)} is not JSON: the backup is damaged`);
  }
  if (!parsed.success) return fail(`${path.join(dir, MANIFEST)} is not a backup manifest: ${parsed.error.issues[0].message}`);
  for (const [file, sum] of Object.entries(parsed.data.files)) {
    const full = path.join(dir, file);
    if (path.relative(dir, full).startsWith('..')) fail(`The manifest names a file outside the backup: ${file}`);
    if (!fs.existsSync(full)) fail(`The backup is incomplete: ${file} is missing`);
    if ((await sha256(full)) !== sum) fail(`The backup is damaged: ${file} does not match its checksum in the manifest`);
  }
  return parsed.data;
}

/** Refuses a DATA_DIR that already holds a database, uploads or secrets: a restore never mixes two. */
export function expectEmptyDataDir(config: Config, database: string[]): void {
  const uploads = uploadsDir(config);
  const held = [
    ...[...database, ...SECRETS].filter((name) => fs.existsSync(path.join(config.dataDir, name))),
    ...(fs.existsSync(uploads) && fs.readdirSync(uploads).length ? [UPLOADS] : []),
  ];
  if (held.length)
    fail(`DATA_DIR=${config.dataDir} already holds ${held.join(', ')}: restore into an empty DATA_DIR (a new directory), never over data`);
}
