import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_UNAVAILABLE } from '../../contract/texts.js';
import { buildUser, newInviteCode, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { InviteEntity } from './entity.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INVITES_PER_USER: '3', INVITE_REFILL_DAYS: '7' });
});
afterAll(() => server?.close());

let n = 0;
const visitor = () => {
  n += 1;
  return { username: `visitor${n}`, email: `visitor${n}@example.com`, password: 'visiting' };
};
const joinVia = (via: string, fields = visitor()) => server.request('POST', '/api/auth/register', { body: { ...fields, via } });
const availability = (username: string) => server.request('GET', `/api/invites/join/${username}`);
const invitesOf = async (who: TestUser) =>
  (await server.request<{ code: string; status: string }[]>('GET', `/invites/${who.user._id}`, { token: who.token })).body;

/** Marks all but `keep` of the user's unused invites used, straight in the database. */
async function leaveFree(who: TestUser, keep: number): Promise<void> {
  const free = (await invitesOf(who)).filter((i) => i.status === 'available');
  await server.deps.db.transaction(async (em) => {
    for (const invite of free.slice(keep)) await em.update(InviteEntity, { code: invite.code }, { status: 'used', usedAt: new Date() });
  });
}

describe('joining through a link creator', () => {
  it("lets a visitor join with one of the link creator's invites, without learning any code", async () => {
    const owner = await buildUser(server);
    const codes = (await invitesOf(owner)).map((i) => i.code);
    expect(codes).toHaveLength(3);

    const before = await availability(owner.user.username);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ available: true, displayName: owner.user.displayName });

    const joined = await joinVia(owner.user.username.toUpperCase());
    expect(joined.status).toBe(201);
    expect(joined.body.user.username).toBe(`visitor${n}`);
    expect(typeof joined.body.token).toBe('string');
    const me = await server.request('GET', '/api/auth/me', { token: joined.body.token });
    expect(me.body.username).toBe(`visitor${n}`);
    // The new account has its own invites and never sees the inviter's codes.
    const seen = JSON.stringify([
      joined.body,
      me.body,
      (await server.request('GET', `/invites/${me.body._id}`, { token: joined.body.token })).body,
    ]);
    for (const code of codes) expect(seen).not.toContain(code);

    const after = await invitesOf(owner);
    expect(after.filter((i) => i.status === 'used')).toHaveLength(1);
    expect(after.filter((i) => i.status === 'available')).toHaveLength(2);
  });

  it('makes exactly one account from a creator with one invite under 12 concurrent joins', async () => {
    const owner = await buildUser(server);
    await leaveFree(owner, 1);
    const results = await Promise.all(Array.from({ length: 12 }, () => joinVia(owner.user.username)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'invite_unavailable', message: JOIN_UNAVAILABLE });
    }
    expect((await invitesOf(owner)).filter((i) => i.status === 'available')).toHaveLength(0);
    expect((await availability(owner.user.username)).body).toEqual({ available: false, displayName: null });
  });

  it('refuses with a 400 once none is left', async () => {
    const owner = await buildUser(server);
    await leaveFree(owner, 0);
    expect((await availability(owner.user.username)).body.available).toBe(false);
    const res = await joinVia(owner.user.username);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(JOIN_UNAVAILABLE);
  });

  it('is off when the creator turns the setting off (the owner’s own view shows it, nobody else’s)', async () => {
    const owner = await buildUser(server);
    const other = await buildUser(server);
    expect(owner.user.letVisitorsJoin).toBe(true);
    expect((await server.request('PUT', '/api/invites/settings', { body: { letVisitorsJoin: false } })).status).toBe(401);
    const off = await server.request('PUT', '/api/invites/settings', { token: owner.token, body: { letVisitorsJoin: false } });
    expect(off.status).toBe(200);
    expect(off.body.letVisitorsJoin).toBe(false);
    expect((await server.request('GET', '/api/auth/me', { token: owner.token })).body.letVisitorsJoin).toBe(false);
    const seenByOther = await server.request('GET', `/api/users?username=${owner.user.username}`, { token: other.token });
    expect(seenByOther.status).toBe(200);
    expect(seenByOther.body).not.toHaveProperty('letVisitorsJoin');

    expect((await availability(owner.user.username)).body).toEqual({ available: false, displayName: null });
    const refused = await joinVia(owner.user.username);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invite_unavailable', message: JOIN_UNAVAILABLE });
    expect((await invitesOf(owner)).filter((i) => i.status === 'available')).toHaveLength(3);

    await server.request('PUT', '/api/invites/settings', { token: owner.token, body: { letVisitorsJoin: true } });
    expect((await availability(owner.user.username)).body.available).toBe(true);
    expect((await joinVia(owner.user.username)).status).toBe(201);
  });

  it('answers an unknown creator like one with nothing to share, and still needs an invite or a creator', async () => {
    expect((await availability('nobody-here')).body).toEqual({ available: false, displayName: null });
    expect((await joinVia('nobody-here')).status).toBe(400);
    const none = await server.request('POST', '/api/auth/register', { body: visitor() });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('An invite is required to register.');
    // An invite code still works, and wins when both are given.
    const both = await server.request('POST', '/api/auth/register', {
      body: { ...visitor(), inviteCode: await newInviteCode(server), via: 'nobody-here' },
    });
    expect(both.status).toBe(201);
  });

  it('counts joins against the registration rate limit', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.request('POST', '/api/auth/register', { body: { ...visitor(), via: 'someone' } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});
