import type { Pool } from 'pg';
import { QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGiftMessage } from '../conversations/gift-message.js';
import { isUniqueViolation } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { postgresWritesDuring } from '../testing/pg-writes.js';
import { buildUsers, depositFor, startTestServer, type TestServer } from '../testing/server.js';
import { read, sql } from './sql.js';

// PostgreSQL only: SQLite's transactions go through the group committer.
const postgres = Boolean(process.env.DATABASE_URL);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const WARM_UP = sql('SELECT 1');

/** Warms the pool (three idle connections) and the read connections, then counts writes to PostgreSQL while `during` runs. */
async function writesDuring<T>(during: () => Promise<T>): Promise<{ value: T; writes: number }> {
  const pool = (server.deps.db.source.driver as unknown as { master: Pool }).master;
  const clients = await Promise.all(Array.from({ length: 3 }, () => pool.connect()));
  clients.forEach((c) => c.release());
  // Both read connections open (pg-reads.ts): a connection's start-up is a write of its own.
  for (let i = 0; i < 2; i++) await read(server.deps.db, WARM_UP, []);
  return postgresWritesDuring(during);
}

const bioOf = async (id: string) => (await server.deps.db.manager.findOneByOrFail(UserEntity, { id })).bio;

describe.runIf(postgres)('PostgreSQL transactions', () => {
  it('send BEGIN with the first statement: a gift message, numbered in its own statement, in two writes', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pgtx');
    const { value, writes } = await writesDuring(() =>
      server.deps.db.transaction((em) =>
        recordGiftMessage(em, {
          giverId: giver.user._id,
          recipientId: recipient.user._id,
          identity: 'anonymous',
          text: 'hello',
          gift: { title: '$1.00', giftType: 'currency', img: null },
        }),
      ),
    );
    // Its statement numbered it (the members locked first): the number came back with it.
    expect(value.message.seq).toEqual(expect.any(Number));
    const [row] = await server.deps.db.manager.query<{ seq: string }[]>('SELECT seq FROM messages WHERE id = $1', [value.message.id]);
    expect(value.message.seq).toBe(Number(row.seq));
    expect(writes).toBe(2);
  });

  it('send a give to PostgreSQL in seven writes: the session, the link, members, gift message, payment and use with BEGIN, the held lots and the debt, the receipt, then COMMIT', async () => {
    const [owner, giver] = await buildUsers(server, 2, 'pggive');
    await depositFor(server, giver, 10);
    const link = await server.request<{ id: string }>('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
    });
    expect(link.status).toBe(201);
    const { value: give, writes } = await writesDuring(() =>
      server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: link.body.id, type: 'currency', amount: 2 } }),
    );
    expect(give.status).toBe(201);
    // Money on hold added its reads of the giver's lots and debt, and the gift's receipt, each a round trip of its own.
    // With Redis the balances are read once more after the commit, to push to sockets on any process.
    expect(writes).toBe(server.deps.config.redisUrl ? 8 : 7);
  });

  it('roll back all of a work that throws, and serve the next transaction on the same pool', async () => {
    const [user] = await buildUsers(server, 1, 'pgrb');
    await expect(
      server.deps.db.transaction(async (em) => {
        await em.update(UserEntity, { id: user.user._id }, { bio: 'not kept' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await bioOf(user.user._id)).not.toBe('not kept');
    // Twenty more (the pool's size): each runs inside a transaction begun before its first statement.
    for (let i = 0; i < 20; i++) {
      const [session] = await server.deps.db.transaction(async (em) => {
        await em.update(UserEntity, { id: user.user._id }, { bio: `kept ${i}` });
        return em.query<{ begun_before: boolean }[]>(
          'SELECT xact_start < query_start AS begun_before FROM pg_stat_activity WHERE pid = pg_backend_pid()',
        );
      });
      expect(session.begun_before).toBe(true);
    }
    expect(await bioOf(user.user._id)).toBe('kept 19');
    const [open] = await server.deps.db.manager.query<{ n: string }[]>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    expect(Number(open.n)).toBe(0);
  });

  it("fail with the failing statement's QueryFailedError, keeping nothing before it", async () => {
    const [a, b] = await buildUsers(server, 2, 'pgfail');
    const failed = await server.deps.db
      .transaction(async (em) => {
        await em.update(UserEntity, { id: a.user._id }, { bio: 'not kept either' });
        // b's username is taken: a unique violation, from PostgreSQL.
        await em.update(UserEntity, { id: a.user._id }, { username: b.user.username });
      })
      .catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(QueryFailedError);
    expect(isUniqueViolation(failed)).toBe(true);
    expect(await bioOf(a.user._id)).not.toBe('not kept either');
  });
});
