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
/** A secret as the backup holds it: sealed with the backup's key. */
const SEALED = '.sealed';
export const MANIFEST = 'manifest.json';
/** Tables a backup holds empty: a restore signs everyone out, and their push devices end with their sessions. */
export const LEFT_OUT = ['sessions', 'push_subscriptions'] as const;
export const UPLOADS = 'uploads';

const Counts = z.object({ users: z.number(), ledgerTransfers: z.number(), ledgerEntries: z.number() });
export type Counts = z.infer<typeof Counts>;

const Manifest = z.object({
  format: z.literal(2),
  /** The salt BACKUP_KEY is stretched with (scrypt), hex: the keys that seal the secrets and sign this manifest. */
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  database: z.enum(['sqlite', 'postgresql']),
  createdAt: z.string(),
  /** The last migration the database had run: a restore refuses one this code does not know. */
  migration: z.string(),
  counts: Counts,
  /** Every file of the backup but this one, by its path inside the backup: its SHA-256, hex. */
  files: z.record(z.string(), z.string()),
});
export type Manifest = z.infer<typeof Manifest>;
const Signed = Manifest.extend({ signature: z.string().regex(/^[0-9a-f]{64}$/) });

/** The keys of one backup, from BACKUP_KEY and the backup's salt: one seals the secrets, one signs the manifest. */
export interface BackupKeys {
  salt: string;
  seal: Buffer;
  sign: Buffer;
}

/** Stretches BACKUP_KEY with `salt` (a new one for a new backup): fails saying how to set it when it is missing. */
export function backupKeys(config: Pick<Config, 'backupKey'>, salt = crypto.randomBytes(16).toString('hex')): BackupKeys {
  if (!config.backupKey)
    fail(
      'Set BACKUP_KEY (a passphrase of at least 16 characters, kept apart from the backups): a backup seals its secrets and signs its manifest with it, and a restore needs the same one',
    );
  const stretched = crypto.scryptSync(config.backupKey, Buffer.from(salt, 'hex'), 64, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return { salt, seal: stretched.subarray(0, 32), sign: stretched.subarray(32) };
}

/** JSON with every object's keys in order: the same bytes however the manifest was read. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

const signatureOf = (manifest: Manifest, keys: BackupKeys) =>
  crypto.createHmac('sha256', keys.sign).update(canonical(manifest)).digest('hex');

/** AES-256-GCM: the IV, the sealed bytes, the tag. */
function seal(plain: Buffer, keys: BackupKeys): Buffer {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.seal, iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function unseal(sealed: Buffer, keys: BackupKeys, name: string): Buffer {
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keys.seal, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
  } catch {
    return fail(`The backup's ${name} cannot be opened with this BACKUP_KEY`);
  }
}

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
export async function copyFilesOut(config: Config, dir: string, keys: BackupKeys): Promise<string[]> {
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
      const sealed = path.join(dir, `${name}${SEALED}`);
      await fs.promises.writeFile(sealed, seal(await fs.promises.readFile(path.join(config.dataDir, name)), keys), {
        mode: PRIVATE_FILE_MODE,
        flag: 'wx',
      });
      await syncFile(sealed);
      copied.push(`${name}${SEALED}`);
    }
  await syncFile(path.join(dir, UPLOADS));
  return copied;
}

/** Copies the backup's uploads into DATA_DIR, and its secrets, unsealed. */
export async function copyFilesIn(manifest: Manifest, dir: string, config: Config, keys: BackupKeys): Promise<void> {
  makePrivateDir(uploadsDir(config), { always: true });
  for (const file of Object.keys(manifest.files)) {
    if (file.startsWith(`${UPLOADS}/`)) {
      await copyPrivate(path.join(dir, file), path.join(uploadsDir(config), file.slice(UPLOADS.length + 1)));
      continue;
    }
    const name = file.slice(0, -SEALED.length);
    if (!file.endsWith(SEALED) || !(SECRETS as readonly string[]).includes(name)) continue;
    const plain = unseal(await fs.promises.readFile(path.join(dir, file)), keys, name);
    await fs.promises.writeFile(path.join(config.dataDir, name), plain, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    await syncFile(path.join(config.dataDir, name));
  }
  await syncFile(uploadsDir(config));
}

/** The manifest as the backup holds it: with its signature. */
export const signedManifest = (manifest: Manifest, keys: BackupKeys) => ({ ...manifest, signature: signatureOf(manifest, keys) });

/** Writes the manifest, signed with the backup's key. */
export async function writeManifest(dir: string, manifest: Manifest, keys: BackupKeys): Promise<void> {
  const file = path.join(dir, MANIFEST);
  const signed = signedManifest(manifest, keys);
  await fs.promises.writeFile(file, JSON.stringify(signed, null, 2) + '\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  await syncFile(file);
}

/**
 * The backup's manifest, signed with BACKUP_KEY, with every file it lists present and unchanged,
 * and the backup's keys; fails saying what is wrong.
 */
export async function readVerifiedManifest(
  dir: string,
  config: Pick<Config, 'backupKey'>,
): Promise<{ manifest: Manifest; keys: BackupKeys }> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(dir, MANIFEST), 'utf8');
  } catch {
    return fail(`${dir} is not a Giftlink backup: it has no ${MANIFEST}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(`${path.join(dir, MANIFEST)} is not JSON: the backup is damaged`);
  }
  if ((json as { format?: unknown } | null)?.format === 1)
    fail('This backup was made before backups were sealed and signed: restore it with the version of Giftlink that made it');
  const parsed = Signed.safeParse(json);
  if (!parsed.success) return fail(`${path.join(dir, MANIFEST)} is not a backup manifest: ${parsed.error.issues[0].message}`);
  const { signature, ...manifest } = parsed.data;
  const keys = backupKeys(config, manifest.salt);
  const expected = Buffer.from(signatureOf(manifest, keys), 'hex');
  if (!crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    fail("The backup's manifest does not match its signature: it was changed, or BACKUP_KEY is not the one the backup was made with");
  for (const [file, sum] of Object.entries(manifest.files)) {
    const full = path.join(dir, file);
    if (path.relative(dir, full).startsWith('..')) fail(`The manifest names a file outside the backup: ${file}`);
    if (!fs.existsSync(full)) fail(`The backup is incomplete: ${file} is missing`);
    if ((await sha256(full)) !== sum) fail(`The backup is damaged: ${file} does not match its checksum in the manifest`);
  }
  return { manifest, keys };
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
