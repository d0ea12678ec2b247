import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { ConfigError, type Config } from '../config.js';
import { openDatabase, sqliteFile, type Database, type Schema } from './index.js';

/** The database's own record (migration Instance1763872500000): its random id, and its server's public URL. */
export interface Instance {
  id: string;
  /** The PUBLIC_URL (or http://localhost:$PORT) of the server that last started on it; null before any did. */
  publicUrl: string | null;
}

export async function readInstance(db: Database): Promise<Instance> {
  const rows: { id: string; public_url: string | null }[] = await db.manager.query('SELECT id, public_url FROM instance');
  return { id: rows[0].id, publicUrl: rows[0].public_url };
}

/** A command names the database it opened in this header of its /healthz; a server on another one answers 409. */
export const INSTANCE_HEADER = 'x-giftlink-instance';

/** Whether `given` is the database's id, in constant time: /healthz answers anyone who asks. */
export function isInstance(given: string, id: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(id));
}

/** The database's id, read on the connection every write goes through (/healthz: the database answers). */
export async function writerInstanceId(db: Database): Promise<string> {
  const rows: { id: string }[] = await db.source.query('SELECT id FROM instance');
  return rows[0].id;
}

/** At start-up: the server's public URL, which the commands compare with their own. */
export async function recordServer(db: Database, publicUrl: string): Promise<void> {
  const p = db.isPostgres ? '$1' : '?';
  await db.transaction((em) => em.query(`UPDATE instance SET public_url = ${p}`, [publicUrl]));
}

const SAME_SETTINGS =
  "Give the command the server's DATABASE_URL, DATA_DIR and PORT: set them in .env in the project root, which both read.";

/** Where a command finds the server its configuration names: HOST and PORT, from this machine. */
export function serverOrigin(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The `status` /healthz answers at `origin`, asked with `headers`; undefined when no Giftlink server answers there. */
async function healthStatus(origin: string, headers: Record<string, string> = {}): Promise<unknown> {
  try {
    const res = await fetch(`${origin}/healthz`, { headers, signal: AbortSignal.timeout(2_000) });
    const body: unknown = await res.json();
    return body && typeof body === 'object' && 'status' in body ? body.status : undefined;
  } catch {
    // nothing listening there, or not a Giftlink server
    return undefined;
  }
}

/** The database a configuration names, for messages: never a password. */
function named(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `DATA_DIR=${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  if (url.password) url.password = '***';
  return `DATABASE_URL=${url.toString()}`;
}

/**
 * Opens the database for `npm run invite` and `npm run moderation`, and makes sure it is the one
 * the running server uses: when the Giftlink server on HOST:PORT says it runs on another database
 * than the one opened (or this configuration names no database yet) it stops with a ConfigError naming the
 * settings, before anything is written. Warns when it made a new database, or when the server last
 * started on this one under another public URL (so printed links would not reach it).
 */
export async function openServerDatabase(config: Config, schema: Schema, warn: (line: string) => void): Promise<Database> {
  const origin = serverOrigin(config);
  const running = (await healthStatus(origin)) === 'ok';
  if (running && !config.databaseUrl && !fs.existsSync(sqliteFile(config)))
    throw new ConfigError(
      `The Giftlink server at ${origin} uses another database: ${named(config)} holds none, and this command would make a second one. ${SAME_SETTINGS}`,
    );
  const db = await openDatabase(config, schema);
  try {
    const instance = await readInstance(db);
    // The server never tells its id: it answers whether ours is another.
    if (running && (await healthStatus(origin, { [INSTANCE_HEADER]: instance.id })) === 'other database')
      throw new ConfigError(
        `The Giftlink server at ${origin} uses another database than this command opened (${named(config)}). ${SAME_SETTINGS}`,
      );
    if (db.created)
      warn(`Warning: made a new, empty database (${named(config)}); no server has used it yet. If yours runs elsewhere: ${SAME_SETTINGS}`);
    if (instance.publicUrl && instance.publicUrl !== config.publicUrl)
      warn(
        `Warning: the server of this database last started at ${instance.publicUrl}, this command's address is ${config.publicUrl}: links it prints may not reach the server. Set PORT (and PUBLIC_URL) as the server has them, in .env.`,
      );
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}
