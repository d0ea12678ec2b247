import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_UNAVAILABLE } from '../../contract/texts.js';
import { ADULT_BIRTH_DATE, buildUser, newInviteCode, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { InviteEntity, LinkJoinEntity } from './entity.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INVITES_PER_USER: '3' });
});
afterAll(() => server?.close());

let n = 0;
const visitor = () => {
  n += 1;
  return { username: `visitor${n}`, email: `visitor${n}@example.com`, password: 'visiting', dateOfBirth: ADULT_BIRTH_DATE };
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

describe('joining through a shared link', () => {
  it('lets a visitor join through a link without spending anyone’s invites or learning a code', async () => {
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
    // The new account has its own invites and never sees the owner's codes.
    const seen = JSON.stringify([
      joined.body,
      me.body,
      (await server.request('GET', `/invites/${me.body._id}`, { token: joined.body.token })).body,
    ]);
    for (const code of codes) expect(seen).not.toContain(code);
    expect((await server.request('GET', `/invites/${me.body._id}`, { token: joined.body.token })).body).toHaveLength(3);

    // The owner keeps every invite, and the join is recorded against their link.
    expect((await invitesOf(owner)).filter((i) => i.status === 'available')).toHaveLength(3);
    expect(await server.deps.db.manager.countBy(LinkJoinEntity, { inviterId: owner.user._id, userId: me.body._id })).toBe(1);
  });

  it('keeps letting visitors in after every personal invite is used', async () => {
    const owner = await buildUser(server);
    await leaveFree(owner, 0);
    expect((await availability(owner.user.username)).body.available).toBe(true);
    expect((await joinVia(owner.user.username)).status).toBe(201);
    expect((await joinVia(owner.user.username)).status).toBe(201);
  });

  it('lets in at most LINK_JOINS_PER_DAY through one owner in any 24 hours, even when joins race', async () => {
    const limited = await startTestServer({ LINK_JOINS_PER_DAY: '3' });
    try {
      const owner = await buildUser(limited);
      const other = await buildUser(limited);
      const join = (via: string) => limited.request('POST', '/api/auth/register', { body: { ...visitor(), via } });
      expect((await join(owner.user.username)).status).toBe(201);
      const results = await Promise.all(Array.from({ length: 8 }, () => join(owner.user.username)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(2);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: 'invite_unavailable', message: JOIN_UNAVAILABLE });
      }
      expect((await limited.request('GET', `/api/invites/join/${owner.user.username}`)).body).toEqual({
        available: false,
        displayName: null,
      });
      // Another owner's link still lets people in; the first one does again a day later.
      expect((await join(other.user.username)).status).toBe(201);
      const later = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000);
      limited.deps.clock = () => later;
      expect((await limited.request('GET', `/api/invites/join/${owner.user.username}`)).body.available).toBe(true);
      expect((await join(owner.user.username)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('lets in at most JOINS_PER_DAY through all links together', async () => {
    const limited = await startTestServer({ JOINS_PER_DAY: '2' });
    try {
      const [a, b, c] = [await buildUser(limited), await buildUser(limited), await buildUser(limited)];
      const join = (via: string) => limited.request('POST', '/api/auth/register', { body: { ...visitor(), via } });
      expect((await join(a.user.username)).status).toBe(201);
      expect((await join(b.user.username)).status).toBe(201);
      const refused = await join(c.user.username);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invite_unavailable');
      // An invite code is not a link join: it still works.
      const withCode = await limited.request('POST', '/api/auth/register', {
        body: { ...visitor(), inviteCode: await newInviteCode(limited) },
      });
      expect(withCode.status).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('is off when the owner turns the setting off (the owner’s own view shows it, nobody else’s)', async () => {
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
    expect(await server.deps.db.manager.countBy(LinkJoinEntity, { inviterId: owner.user._id })).toBe(0);

    await server.request('PUT', '/api/invites/settings', { token: owner.token, body: { letVisitorsJoin: true } });
    expect((await availability(owner.user.username)).body.available).toBe(true);
    expect((await joinVia(owner.user.username)).status).toBe(201);
  });

  it('lets nobody in through a suspended owner', async () => {
    const owner = await buildUser(server);
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: owner.user._id }, { suspendedAt: new Date() }));
    expect((await availability(owner.user.username)).body.available).toBe(false);
    expect((await joinVia(owner.user.username)).status).toBe(400);
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
