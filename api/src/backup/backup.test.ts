import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { backupKeys, signedManifest, type Manifest } from './manifest.js';
import { openDatabase } from '../db/index.js';
import { freshPostgres } from '../db/fresh-postgres.js';
import { schema } from '../schema.js';
import { runCommand } from '../testing/commands.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { startServerProcess, type ServerProcess } from '../testing/process.js';
import { ADULT_BIRTH_DATE } from '../testing/server.js';

/**
 * `npm run backup` of a running server (its own process) under concurrent gives, and `npm run
 * restore` of it into a fresh DATA_DIR (and, on PostgreSQL, a fresh database) that a new server
 * then runs on: every give acknowledged before the backup began is there, the ledger is sound, the
 * uploads are served. A restore refuses data already there, and a damaged backup.
 */
const BASE = process.env.DATABASE_URL;
const made: { dirs: string[]; databases: { drop(): Promise<void> }[]; servers: ServerProcess[] } = { dirs: [], databases: [], servers: [] };
afterAll(async () => {
  for (const s of made.servers) s.child.kill('SIGKILL');
  await Promise.all(made.servers.map((s) => s.exited()));
  for (const db of made.databases) await db.drop();
  for (const dir of made.dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-backup-'));
  made.dirs.push(dir);
  return dir;
};

/** A DATA_DIR, and on PostgreSQL a database of its own: the settings a server and the commands share. */
async function place(): Promise<Record<string, string>> {
  if (!BASE) return { DATA_DIR: tempDir(), BACKUP_KEY };
  const db = await freshPostgres(BASE, 'giftlink_backup');
  made.databases.push(db);
  return { DATA_DIR: tempDir(), DATABASE_URL: db.url, BACKUP_KEY };
}

const BACKUP_KEY = 'the passphrase of these tests';

const SERVER = { INVITES_PER_USER: '100', API_RATE_LIMIT: '1000000', AUTH_RATE_LIMIT: '1000000', PAYMENTS: 'sandbox' };

async function start(where: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ ...SERVER, ...where }, where.DATA_DIR);
  made.servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited();
}

const command = (where: Record<string, string>, args: string[]) =>
  runCommand('backup/cli.ts', { ENV_FILE: '', ...where }, where.DATA_DIR, args);

interface Reply<T> {
  status: number;
  replayed: boolean;
  body: T;
}

async function call<T>(
  server: ServerProcess,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
  key?: string,
): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, replayed: res.headers.has('idempotent-replayed'), body: (text ? JSON.parse(text) : null) as T };
}

interface Account {
  id: string;
  email: string;
  token: string;
  /** Its receive link: one give per giver. */
  linkId: string;
}

/** Accounts through the API (the printed invite, then the first one's), each with money and a receive link. */
async function accounts(server: ServerProcess, count: number): Promise<Account[]> {
  const printed = () => /\/invite\/([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
  for (let i = 0; i < 100 && !printed(); i++) await new Promise((r) => setTimeout(r, 50));
  let codes = [printed()!];
  const out: Account[] = [];
  for (let i = 0; i < count; i++) {
    const username = `backup${i}`;
    const reg = await call<{ token: string; user: { _id: string } }>(server, 'POST', '/api/auth/register', undefined, {
      username,
      email: `${username}@example.com`,
      password: 'secret-pass',
      dateOfBirth: ADULT_BIRTH_DATE,
      inviteCode: codes.shift(),
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    if (i === 0) {
      const invites = await call<{ code: string; status: string }[]>(server, 'GET', `/invites/${reg.body.user._id}`, reg.body.token);
      codes = invites.body.filter((inv) => inv.status === 'available').map((inv) => inv.code);
    }
    const { token, user } = reg.body;
    expect(
      (await call(server, 'POST', '/api/billing-settings-deposit', token, { userId: user._id, balance: 100 }, crypto.randomUUID())).status,
    ).toBe(200);
    const link = await call<{ id: string }>(server, 'POST', '/links/create', token, {
      details: { giveorreceive: 'receive', type: 'currency', amount: 50_000, initialQuantity: 1 },
    });
    expect(link.status, JSON.stringify(link.body)).toBeLessThan(300);
    out.push({ id: user._id, email: `${username}@example.com`, token, linkId: link.body.id });
  }
  return out;
}

async function uploadPicture(server: ServerProcess, who: Account): Promise<string> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c0ffee' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set('pfpOrCover', 'profilePicture');
  form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { 'x-auth-token': who.token }, body: form });
  const body = (await res.json()) as { urls: { location: string }[] };
  expect(res.status).toBe(200);
  return body.urls[0].location;
}

/** A request that moves money: a give, or a deposit once every give is made. */
interface Movement {
  from: Account;
  path: string;
  body: Record<string, unknown>;
  key: string;
  status?: number;
  /** When its answer came (ms since the epoch). */
  answeredAt?: number;
}

const GIVE = '/statuses/api/gives';
const DEPOSIT = '/api/billing-settings-deposit';

/**
 * Money moves from `workers` concurrent loops, each with its own Idempotency-Key, until `until`
 * settles: gives, each to a link its giver has not given to, then deposits.
 */
async function movesUntil(server: ServerProcess, people: Account[], until: Promise<unknown>, sent: Movement[], workers = 6): Promise<void> {
  const gives: Movement[] = people.flatMap((from) =>
    people
      .filter((to) => to !== from)
      .map((to) => ({ from, path: GIVE, body: { postId: to.linkId, amount: 1 + crypto.randomInt(3) }, key: crypto.randomUUID() })),
  );
  for (let i = gives.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [gives[i], gives[j]] = [gives[j], gives[i]];
  }
  const deposit = (): Movement => {
    const from = people[crypto.randomInt(people.length)];
    return { from, path: DEPOSIT, body: { userId: from.id, balance: 1 }, key: crypto.randomUUID() };
  };
  const state = { done: false };
  void until.finally(() => (state.done = true));
  const worker = async () => {
    while (!state.done) {
      const move = gives.pop() ?? deposit();
      sent.push(move);
      const res = await call(server, 'POST', move.path, move.from.token, move.body, move.key);
      move.status = res.status;
      move.answeredAt = Date.now();
    }
  };
  await Promise.all([until, ...Array.from({ length: workers }, worker)]);
}

const acknowledged = (moves: Movement[]) => moves.filter((m) => m.status !== undefined && m.status < 300);

/** Flips `count` bytes of `file` at `offset`. */
function flip(file: string, offset: number, count = 16): void {
  const fd = fs.openSync(file, 'r+');
  const bytes = Buffer.alloc(count);
  fs.readSync(fd, bytes, 0, count, offset);
  for (let i = 0; i < count; i++) bytes[i] ^= 0xff;
  fs.writeSync(fd, bytes, 0, count, offset);
  fs.closeSync(fd);
}

function copyBackup(dir: string): string {
  const copy = path.join(tempDir(), 'copy');
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

const readManifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest & { signature: string };

/** Writes the manifest's checksum of `file` anew, signed: a damage neither can see (made before they were taken). */
function rechecksum(dir: string, file: string): void {
  const { signature: _, ...manifest } = readManifest(dir);
  manifest.files[file] = crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(dir, file)))
    .digest('hex');
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify(signedManifest(manifest, backupKeys({ backupKey: BACKUP_KEY }, manifest.salt))),
  );
}

const databaseFile = BASE ? 'giftlink.pgdump' : 'giftlink.sqlite';
let backup: string;
let restoredTo: Record<string, string>;

describe(`npm run backup and npm run restore (${BASE ? 'PostgreSQL' : 'SQLite'})`, () => {
  it(
    'backs up a running server under gives; the restored one holds every give and deposit acknowledged before, a sound ledger and the uploads',
    { timeout: 120_000 },
    async () => {
      const source = await place();
      const server = await start(source);
      const people = await accounts(server, 16);
      const picture = await uploadPicture(server, people[0]);
      const pictureBytes = Buffer.from(await (await fetch(server.url + picture)).arrayBuffer());

      // Money moves before, during and after the backup.
      const moves: Movement[] = [];
      const run = (async () => {
        while (acknowledged(moves).length < 40) await new Promise((r) => setTimeout(r, 20));
        return command(source, ['backup']);
      })();
      await movesUntil(server, people, run, moves);
      const result = await run;
      const ended = Date.now();
      expect(result.code, result.stderr).toBe(0);
      backup = result.stdout.trim().split('\n').at(-1)!;
      expect(path.dirname(backup)).toBe(path.join(source.DATA_DIR, 'backups'));
      // When the command began, before it opened the database: what was answered earlier had committed.
      const began = Date.parse(
        (JSON.parse(fs.readFileSync(path.join(backup, 'manifest.json'), 'utf8')) as { createdAt: string }).createdAt,
      );
      await stop(server);

      const before = acknowledged(moves).filter((m) => m.answeredAt! < began);
      expect(before.filter((m) => m.path === GIVE).length).toBeGreaterThanOrEqual(40);
      // The server was writing while the backup ran: gives answered between its start and its end (how many depends on the machine's speed).
      expect(acknowledged(moves).filter((m) => m.answeredAt! > began && m.answeredAt! < ended).length).toBeGreaterThan(0);
      expect(moves.filter((m) => m.status! >= 300)).toEqual([]);

      restoredTo = await place();
      const restore = await command(restoredTo, ['restore', backup]);
      expect(restore.code, restore.stderr).toBe(0);
      const restored = await start(restoredTo);
      // No session came with the backup: a token of the old server is no key to the restored one.
      expect((await call(restored, 'GET', '/api/auth/me', people[0].token)).status).toBe(401);
      const tokens = new Map<Account, string>();
      for (const person of people) {
        const login = await call<{ token: string }>(restored, 'POST', '/api/auth/login', undefined, {
          email: person.email,
          password: 'secret-pass',
        });
        expect(login.status).toBe(200);
        tokens.set(person, login.body.token);
      }
      // Each acknowledged movement is there: its key answers the stored answer and moves nothing again.
      for (const move of before) {
        const again = await call(restored, 'POST', move.path, tokens.get(move.from), move.body, move.key);
        expect({ key: move.key, status: again.status, replayed: again.replayed }).toEqual({
          key: move.key,
          status: move.status,
          replayed: true,
        });
      }
      const served = await fetch(restored.url + picture);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(pictureBytes)).toBe(true);
      await stop(restored);

      const db = await openDatabase(loadConfig(restoredTo), schema);
      try {
        await expectLedgerSound(db);
      } finally {
        await db.close();
      }
    },
  );

  it('holds no secret in clear, and is refused changed, without its key or with another', async () => {
    const secret = fs.readFileSync(path.join(restoredTo.DATA_DIR, 'jwt-secret'));
    for (const file of fs.readdirSync(backup, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
      expect(fs.readFileSync(path.join(file.parentPath, file.name)).includes(secret), file.name).toBe(false);

    const changed = copyBackup(backup);
    const manifest = readManifest(changed);
    manifest.counts.users += 1;
    fs.writeFileSync(path.join(changed, 'manifest.json'), JSON.stringify(manifest));
    const into = await place();
    const forged = await command(into, ['restore', changed]);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain("The backup's manifest does not match its signature");
    const { BACKUP_KEY: _, ...keyless } = into;
    const withoutKey = await command(keyless, ['restore', backup]);
    expect(withoutKey.code).toBe(1);
    expect(withoutKey.stderr).toContain('Set BACKUP_KEY');
    const otherKey = await command({ ...into, BACKUP_KEY: 'another passphrase, not the one' }, ['restore', backup]);
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain('BACKUP_KEY is not the one the backup was made with');
    expect(fs.readdirSync(into.DATA_DIR)).toEqual([]);
  });

  it('refuses to restore over data, and changes nothing', async () => {
    const again = await command(restoredTo, ['restore', backup]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds .*restore into an empty/);
    if (BASE) {
      // An empty DATA_DIR, but the database holds the restored one.
      const emptyDir = tempDir();
      const overDatabase = await command({ ...restoredTo, DATA_DIR: emptyDir }, ['restore', backup]);
      expect(overDatabase.code).toBe(1);
      expect(overDatabase.stderr).toMatch(/already holds \d+ tables/);
      expect(fs.readdirSync(emptyDir)).toEqual([]);
    }
  });

  it('refuses a damaged backup before restoring anything', async () => {
    const damaged = copyBackup(backup);
    flip(path.join(damaged, databaseFile), 5000);
    const into = await place();
    const res = await command(into, ['restore', damaged]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${databaseFile} does not match its checksum`);
    expect(fs.readdirSync(into.DATA_DIR)).toEqual([]);
  });

  it.skipIf(BASE)('refuses a copy whose pages are damaged, or whose ledger does not add up, though its checksum matches', async () => {
    // A page SQLite cannot read: the header of the second page, a table's root.
    const unreadable = copyBackup(backup);
    flip(path.join(unreadable, databaseFile), 4096, 8);
    rechecksum(unreadable, databaseFile);
    const res = await command(await place(), ['restore', unreadable]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("the backup's database cannot be read as a SQLite database: database disk image is malformed");

    // An index that no longer matches its table: the last bytes of the users' first index, a key.
    const index = copyBackup(backup);
    const file = path.join(index, databaseFile);
    const sqlite = new BetterSqlite3(file, { readonly: true });
    const { rootpage } = sqlite
      .prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users' ORDER BY name")
      .get() as {
      rootpage: number;
    };
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.close();
    flip(file, rootpage * pageSize - 4, 4);
    rechecksum(index, databaseFile);
    const res1 = await command(await place(), ['restore', index]);
    expect(res1.code).toBe(1);
    expect(res1.stderr).toMatch(/the backup's database fails PRAGMA integrity_check: .*index/);

    const ledger = copyBackup(backup);
    const db = new BetterSqlite3(path.join(ledger, databaseFile));
    db.prepare('UPDATE users SET balance_cents = balance_cents + 100 WHERE rowid = (SELECT MIN(rowid) FROM users)').run();
    db.close();
    rechecksum(ledger, databaseFile);
    const res2 = await command(await place(), ['restore', ledger]);
    expect(res2.code).toBe(1);
    expect(res2.stderr).toMatch(/The ledger of the backup's database is not sound: cached balances differ from their entries/);
  });

  it.runIf(BASE)('refuses a dump whose ledger does not add up, though its checksum matches, once restored', async () => {
    // The backup's dump restored, a balance changed, dumped again: a damage made before the checksum.
    const scratch = await freshPostgres(BASE!, 'giftlink_backup');
    made.databases.push(scratch);
    const tampered = copyBackup(backup);
    const file = path.join(tampered, databaseFile);
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${scratch.url}`, file]);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query('UPDATE users SET balance_cents = balance_cents + 100 WHERE id = (SELECT MIN(id) FROM users)');
    await client.end();
    fs.rmSync(file);
    execFileSync('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${scratch.url}`]);
    rechecksum(tampered, databaseFile);
    const res = await command(await place(), ['restore', tampered]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/The ledger of the restored database is not sound: cached balances differ from their entries/);
  });
});
