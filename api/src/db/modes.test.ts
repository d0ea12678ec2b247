import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';

// The SQLite files exist on the SQLite run only; the generated JWT secret on both.
const sqlite = !process.env.DATABASE_URL;

let root: string;
let server: TestServer;
let umask: number;
beforeAll(async () => {
  // The most permissive umask: the modes must not come from it.
  umask = process.umask(0o000);
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-modes-'));
  server = await startTestServer({ DATA_DIR: path.join(root, 'fresh', 'data'), JWT_SECRET: undefined });
  await buildUser(server); // a write, so the WAL exists
});
afterAll(async () => {
  await server?.close();
  process.umask(umask);
  fs.rmSync(root, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('what the server keeps on disk', () => {
  it('creates DATA_DIR (and its missing parents) owner-only', () => {
    const dataDir = server.deps.config.dataDir;
    expect(dataDir).toBe(path.join(root, 'fresh', 'data'));
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.dirname(dataDir))).toBe(0o700);
  });

  it('writes the generated JWT secret owner-only', () => {
    expect(mode(path.join(server.deps.config.dataDir, 'jwt-secret'))).toBe(0o600);
  });

  it.runIf(sqlite)('keeps the SQLite database and its -wal and -shm files owner-only', () => {
    const db = path.join(server.deps.config.dataDir, 'giftlink.sqlite');
    const files = [db, `${db}-wal`, `${db}-shm`].filter((f) => fs.existsSync(f));
    expect(files).toContain(db);
    expect(files).toContain(`${db}-wal`);
    for (const file of files) expect(mode(file), file).toBe(0o600);
  });
});

describe('how SQLite commits', () => {
  const synchronous = async () => ((await server.deps.db.source.query('PRAGMA synchronous')) as { synchronous: number }[])[0].synchronous;

  // SQLite opens a database already in WAL mode with synchronous=NORMAL (better-sqlite3's build):
  // a commit would then not wait for the disk after a restart, though it did on the first start.
  it.runIf(sqlite)('waits for the disk on every commit (synchronous=FULL), on a new database and after a restart', async () => {
    expect(await synchronous()).toBe(2);
    const dataDir = server.deps.config.dataDir;
    await server.close();
    server = await startTestServer({ DATA_DIR: dataDir, JWT_SECRET: undefined });
    expect(await synchronous()).toBe(2);
  });
});
