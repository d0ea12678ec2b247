import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionEntity } from '../auth/entity.js';
import { UserEntity } from '../users/entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer } from '../testing/server.js';
import { hydrate, read, sql } from './sql.js';

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
