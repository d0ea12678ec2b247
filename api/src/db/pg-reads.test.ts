import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresWritesDuring } from '../testing/pg-writes.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { PgReads } from './pg-reads.js';
import { read, sql } from './sql.js';

// PostgreSQL only: SQLite reads on its own read connection.
const postgres = Boolean(process.env.DATABASE_URL);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const USERNAME_OF = sql('SELECT username FROM users WHERE id = $1');
const BACKEND = sql('SELECT pg_backend_pid() AS pid');

describe.runIf(postgres)('PostgreSQL reads outside transactions', () => {
  it('go out in one write when requests start them in the same turn, each answered with its own rows', async () => {
    const users = await buildUsers(server, 12, 'pgreads');
    // Both connections open (a connection's start-up is a write of its own).
    for (const u of users.slice(0, 2)) await read(server.deps.db, USERNAME_OF, [u.user._id]);
    const { value, writes } = await postgresWritesDuring(() =>
      Promise.all(users.map((u) => read<{ username: string }>(server.deps.db, USERNAME_OF, [u.user._id]))),
    );
    expect(value.map(([row]) => row.username)).toEqual(users.map((u) => u.user.username));
    expect(writes).toBe(1);
    // A read started in a later turn goes out in a write of its own.
    const { writes: later } = await postgresWritesDuring(async () => {
      await read(server.deps.db, USERNAME_OF, [users[0].user._id]);
      await read(server.deps.db, USERNAME_OF, [users[1].user._id]);
    });
    expect(later).toBe(2);
  });

  it('see what committed before they were sent', async () => {
    const [user] = await buildUsers(server, 1, 'pgseen');
    await server.deps.db.transaction((em) => em.query('UPDATE users SET username = $1 WHERE id = $2', ['pgseen_renamed', user.user._id]));
    const [row] = await read<{ username: string }>(server.deps.db, USERNAME_OF, [user.user._id]);
    expect(row.username).toBe('pgseen_renamed');
  });

  it('fail alone when a statement fails: the reads sent with it are answered', async () => {
    const [user] = await buildUsers(server, 1, 'pgalone');
    const [bad, good] = await Promise.allSettled([
      read(server.deps.db, sql('SELECT 1 / 0 AS never'), []),
      read<{ username: string }>(server.deps.db, USERNAME_OF, [user.user._id]),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status === 'fulfilled' && good.value[0].username).toBe(user.user.username);
  });

  it('open a new connection in place of one that was lost', async () => {
    const reads = new PgReads({ connectionString: process.env.DATABASE_URL }, 1);
    try {
      const [{ pid }] = await reads.query<{ pid: number }>(BACKEND, []);
      await server.deps.db.manager.query('SELECT pg_terminate_backend($1)', [pid]);
      // The read in flight when the connection goes fails, as it would on a pooled connection; the next is served.
      let served: number | undefined;
      for (let attempt = 0; attempt < 20 && served === undefined; attempt++) {
        served = await reads.query<{ pid: number }>(BACKEND, []).then(
          ([row]) => row.pid,
          () => new Promise<undefined>((resolve) => setTimeout(resolve, 50)),
        );
      }
      expect(served).toEqual(expect.any(Number));
      expect(served).not.toBe(pid);
    } finally {
      await reads.close();
    }
    await expect(reads.query(BACKEND, [])).rejects.toThrow('closed');
  });
});
