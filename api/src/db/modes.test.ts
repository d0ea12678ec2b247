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
  const pragma = async (name: string) => Object.values(((await server.deps.db.source.query(`PRAGMA ${name}`)) as object[])[0])[0];

  // The COMMIT writes the WAL; the wait for the disk is db/group-commit.ts's flush, off the main
  // thread. Set on every opening: SQLite does not keep these in the file.
  // Savepoint journals in memory (temp_store 2): a group's gives never spill them to a temporary file.
  it.runIf(sqlite)(
    'leaves the fsync to the flush, checkpoints late and journals savepoints in memory, on a new database and after a restart',
    async () => {
      const modes = async () => [await pragma('synchronous'), await pragma('wal_autocheckpoint'), await pragma('temp_store')];
      expect(await modes()).toEqual([1, 32768, 2]);
      const dataDir = server.deps.config.dataDir;
      await server.close();
      server = await startTestServer({ DATA_DIR: dataDir, JWT_SECRET: undefined });
      expect(await modes()).toEqual([1, 32768, 2]);
    },
  );

  // Far below the writer's own bound of 32,768 pages: only the checkpointer's thread copies these.
  it.runIf(sqlite)('copies what was committed into the database file on a thread of its own', async () => {
    const file = path.join(server.deps.config.dataDir, 'giftlink.sqlite');
    const before = fs.readFileSync(file);
    const user = await buildUser(server, { username: `ckpt${Date.now() % 1_000_000}` });
    await expect.poll(() => fs.readFileSync(file).includes(Buffer.from(user.user.username)), { timeout: 5_000, interval: 100 }).toBe(true);
    expect(before.includes(Buffer.from(user.user.username))).toBe(false);
  });
});
