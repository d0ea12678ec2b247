import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATE_OF_BIRTH_INVALID, UNDER_AGE } from '../../contract/account-texts.js';
import { buildUser, newInviteCode, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const realClock = () => new Date();
afterEach(() => {
  server.deps.clock = realClock;
});

/** Pins the server's clock to `iso`, so 'today' cannot turn over in the middle of a test. */
const pinClock = (iso: string) => {
  const at = new Date(iso);
  server.deps.clock = () => at;
};

/** `YYYY-MM-DD` of a UTC date `years` earlier and `days` later than `from`. */
const shifted = (from: Date, years: number, days = 0) =>
  new Date(Date.UTC(from.getUTCFullYear() - years, from.getUTCMonth(), from.getUTCDate() + days)).toISOString().slice(0, 10);

let n = 0;
const register = async (dateOfBirth: unknown, extra: Record<string, unknown> = {}) => {
  n += 1;
  const body: Record<string, unknown> = { username: `age${n}`, email: `age${n}@example.com`, password: 'secret-pass', ...extra };
  if (dateOfBirth !== undefined) body.dateOfBirth = dateOfBirth;
  if (!('via' in extra) && !('inviteCode' in extra)) body.inviteCode = await newInviteCode(server);
  return { username: `age${n}`, res: await server.request('POST', '/api/auth/register', { body }) };
};

/** The user's row as the database holds it, every column. */
const rowOf = async (username: string): Promise<Record<string, unknown> | undefined> =>
  (await server.deps.db.manager.query(`SELECT * FROM users WHERE username = '${username}'`))[0];

/** How many rows each table holds. */
const tableCounts = async (): Promise<Record<string, number>> => {
  const counts: Record<string, number> = {};
  for (const { tableName } of server.deps.db.manager.connection.entityMetadatas) {
    counts[tableName] = Number((await server.deps.db.manager.query(`SELECT count(*) AS n FROM ${tableName}`))[0].n);
  }
  return counts;
};

/** Everything an invite's owner can read about their invites and their joins. */
const ownersView = async (owner: TestUser) => {
  const as = { token: owner.token };
  return [
    (await server.request('GET', `/invites/${owner.user._id}`, as)).body,
    (await server.request('GET', '/api/invites/summary', as)).body,
    (await server.request('GET', `/api/notifications/${owner.user._id}`, as)).body,
    (await server.request('GET', `/api/invites/join/${owner.user.username}`)).body,
  ];
};

describe('the age gate at registration', () => {
  it('refuses 17 years and 364 days with a 403 and its text, and accepts 18 today', async () => {
    pinClock(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
    const today = server.deps.clock();
    const young = await register(shifted(today, 18, 1));
    expect(young.res.status).toBe(403);
    expect(young.res.body).toEqual({ error: 'under_age', message: UNDER_AGE });
    const adult = await register(shifted(today, 18));
    expect(adult.res.status).toBe(201);
  });

  it('counts a 29 February birthday as come of age on 1 March in other years', async () => {
    pinClock('2026-02-28T23:59:00Z');
    expect((await register('2008-02-29')).res.status).toBe(403);
    pinClock('2026-03-01T00:00:00Z');
    expect((await register('2008-02-29')).res.status).toBe(201);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not padded', '2000-1-02'],
    ['day first', '02/01/2000'],
    ['with a time', '2000-01-02T00:00:00Z'],
    ['not a day', '2001-02-29'],
    ['a number', 20000102],
    ['before 1900', '1899-12-31'],
  ])('answers a date of birth %s with a 400', async (_, dateOfBirth) => {
    const { res } = await register(dateOfBirth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_failed', message: DATE_OF_BIRTH_INVALID });
  });

  it('answers a date still to come with a 400', async () => {
    pinClock('2026-06-15T12:00:00Z');
    const { res } = await register('2026-06-16');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_failed', message: DATE_OF_BIRTH_INVALID });
  });

  it('keeps only adult and the year, never the date', async () => {
    const { username, res } = await register('1994-07-23');
    expect(res.status).toBe(201);
    const row = (await rowOf(username))!;
    expect(Boolean(row.adult)).toBe(true);
    expect(Number(row.birth_year)).toBe(1994);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain('07-23');
    expect(stored).not.toContain('07/23');
    expect(Object.keys(row).filter((column) => /birth|dob/i.test(column))).toEqual(['birth_year']);
  });

  it('stores nothing and spends no invite on a refusal, so the owner sees no attempt', async () => {
    const owner = await buildUser(server);
    const invites = (await server.request<{ code: string; status: string }[]>('GET', `/invites/${owner.user._id}`, { token: owner.token }))
      .body;
    const code = invites.find((i) => i.status === 'available')!.code;
    const before = { counts: await tableCounts(), view: await ownersView(owner) };

    const withCode = await register('2015-05-05', { inviteCode: code });
    const viaLink = await register('2015-05-05', { via: owner.user.username });
    for (const { res } of [withCode, viaLink]) expect(res.status).toBe(403);
    expect(await rowOf(withCode.username)).toBeUndefined();
    expect({ counts: await tableCounts(), view: await ownersView(owner) }).toEqual(before);

    // The same invite still works for an adult.
    expect((await register('1990-01-01', { inviteCode: code })).res.status).toBe(201);
  });

  it("shows the year alone in the user's data export", async () => {
    const { res } = await register('1987-11-30');
    const data = await server.request('GET', '/api/account/export', { token: res.body.token });
    expect(data.status).toBe(200);
    expect(data.body.birthYear).toBe(1987);
    expect(JSON.stringify(data.body)).not.toContain('11-30');
  });
});
