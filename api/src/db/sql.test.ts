import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionEntity } from '../auth/entity.js';
import { UserEntity } from '../users/entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer } from '../testing/server.js';
import { hydrate, positional, read, sql } from './sql.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const USER = sql('SELECT * FROM users WHERE id = $1');
const SESSIONS = sql('SELECT * FROM sessions WHERE user_id = $1');

describe('hydrate (db/sql.ts)', () => {
  it("turns a prepared read's raw row into exactly what TypeORM's findOneBy gives: dates, nulls, booleans, cents", async () => {
    const [user] = await buildUsers(server, 1, 'hyd');
    const id = user.user._id;
    const { db } = server.deps;
    await depositFor(server, user, 12.34);
    const until = new Date(Date.now() + 86_400_000);
    await db.transaction((em) => em.update(UserEntity, { id }, { letVisitorsJoin: false, subscribedUntil: until, bio: 'hi' }));

    const [row] = await read<Record<string, unknown>>(db, USER, [id]);
    const hydrated = hydrate(db, UserEntity, row);
    const typeorm = await db.manager.findOneByOrFail(UserEntity, { id });
    expect(hydrated).toEqual(typeorm);
    expect(hydrated.balanceCents).toBe(1234);
    expect(hydrated.letVisitorsJoin).toBe(false);
    expect(hydrated.subscribedUntil).toEqual(until);
    expect(hydrated.suspendedAt).toBeNull();

    const sessions = (await read<Record<string, unknown>>(db, SESSIONS, [id])).map((r) => hydrate(db, SessionEntity, r));
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions).toEqual(expect.arrayContaining(await db.manager.findBy(SessionEntity, { userId: id })));
    for (const session of sessions) expect(session.expiresAt).toBeInstanceOf(Date);
  });
});

describe('positional (db/sql.ts, SQLite)', () => {
  it('writes each $n outside quotes as ?, in order, repeated and out of order, and leaves quoted text alone', () => {
    expect(positional(`SELECT $2, '$1 and it''s $3', "col$4", $1, $2 FROM t WHERE x = $10`)).toEqual({
      text: `SELECT ?, '$1 and it''s $3', "col$4", ?, ? FROM t WHERE x = ?`,
      order: [1, 0, 1, 9],
    });
  });

  it('binds the values where the statement names them, on the real database', async () => {
    const [user] = await buildUsers(server, 1, 'pos');
    const statement = sql(`SELECT $2 AS second, $1 AS first, $2 AS again, '$1' AS quoted, id FROM users WHERE id = $3`);
    const [row] = await read<Record<string, unknown>>(server.deps.db, statement, ['one', 'two', user.user._id]);
    expect(row).toEqual({ second: 'two', first: 'one', again: 'two', quoted: '$1', id: user.user._id });
  });
});
