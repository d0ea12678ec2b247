import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { connectClient, settle, type TestClient } from '../realtime/testing.js';
import { BROWSER_USER_AGENT, buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SessionEntity } from './entity.js';
import type { SessionView, SignOutOthersResult } from '../../contract/sessions.js';
import { deviceOf } from './sessions-list.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ELECTRON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) giftlink/0.1.0 Chrome/140.0.0.0 Electron/38.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const login = async (who: TestUser, headers: Record<string, string> = {}, on = server): Promise<string> => {
  const res = await on.request<{ token: string }>('POST', '/api/auth/login', {
    body: { email: who.user.email, password: who.password },
    headers,
  });
  expect(res.status).toBe(200);
  return res.body.token;
};

const list = async (token: string, on = server) => {
  const res = await on.request<SessionView[]>('GET', '/api/sessions', { token });
  expect(res.status).toBe(200);
  return res.body;
};

const meStatus = async (token: string, on = server) => (await on.request('GET', '/api/auth/me', { token })).status;

const sessionIdOf = async (token: string) => (await server.deps.tokens.verify(token))!.sessionId;

const connect = async (token: string, on = server) => {
  const client = await connectClient(on, { token });
  open.push(client);
  return client;
};

/** Resolves with the reason the server closed the socket; fails when it stays open for 5 s. */
const disconnected = (client: TestClient) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed open')), 5000);
    client.socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

describe('deviceOf: a readable device from the User-Agent', () => {
  it.each([
    [BROWSER_USER_AGENT, 'Chrome on macOS'],
    [IPHONE_SAFARI, 'Safari on iOS'],
    [FIREFOX_WINDOWS, 'Firefox on Windows'],
    [ELECTRON_WINDOWS, 'Giftlink desktop on Windows'],
    [`GiftlinkDesktop/0.2.0 ${BROWSER_USER_AGENT}`, 'Giftlink desktop on macOS'],
    ['vitest', 'Unknown device'],
    [null, 'Unknown device'],
  ])('%s → %s', (agent, device) => {
    expect(deviceOf(agent)).toBe(device);
  });
});

describe('GET /api/sessions', () => {
  it('lists the live sessions with their device, the current one first and marked, and nothing secret', async () => {
    const who = await buildUser(server); // registered with the desktop Chrome agent
    const phone = await login(who, { 'user-agent': IPHONE_SAFARI });
    const desktop = await login(who, { 'user-agent': BROWSER_USER_AGENT, 'x-giftlink-version': '0.3.0' });
    const ended = await login(who, { 'user-agent': FIREFOX_WINDOWS });
    expect((await server.request('POST', '/api/auth/logout', { token: ended })).status).toBe(204);

    const res = await server.request<SessionView[]>('GET', '/api/sessions', { token: phone });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const sessions = res.body;
    expect(sessions.map((s) => [s.device, s.current])).toEqual([['Safari on iOS', true], expect.anything(), expect.anything()]);
    expect(
      sessions
        .slice(1)
        .map((s) => s.device)
        .sort(),
    ).toEqual(['Chrome on macOS', 'Giftlink desktop on macOS']);
    expect(sessions.map((s) => s.id).sort()).toEqual((await Promise.all([who.token, phone, desktop].map(sessionIdOf))).sort());
    for (const s of sessions) {
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'device', 'id', 'lastSeenAt']);
      expect(Date.parse(s.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    }
    const text = JSON.stringify(sessions);
    for (const secret of [who.token, phone, desktop, '127.0.0.1', 'Mozilla']) expect(text).not.toContain(secret);

    const fromDesktop = await list(desktop);
    expect(fromDesktop.find((s) => s.current)?.device).toBe('Giftlink desktop on macOS');
    expect((await server.request('GET', '/api/sessions')).status).toBe(401);
  });

  it("never shows another user's sessions", async () => {
    const [a, b] = [await buildUser(server), await buildUser(server)];
    const idsOfA = (await list(a.token)).map((s) => s.id);
    expect(idsOfA).toEqual([await sessionIdOf(a.token)]);
    expect((await list(b.token)).map((s) => s.id)).not.toContain(idsOfA[0]);
  });
});

describe('DELETE /api/sessions/{id}', () => {
  it('ends that session: its token is refused and its sockets close; the current session and its socket go on', async () => {
    const who = await buildUser(server);
    const other = await login(who, { 'user-agent': IPHONE_SAFARI });
    const otherSocket = await connect(other);
    const ownSocket = await connect(who.token);
    const closed = disconnected(otherSocket);

    const res = await server.request('DELETE', `/api/sessions/${await sessionIdOf(other)}`, { token: who.token });
    expect(res.status).toBe(204);
    expect(await closed).toBe('io server disconnect');
    expect(await meStatus(other)).toBe(401);
    await expect(connectClient(server, { token: other })).rejects.toMatchObject({ message: 'unauthorized' });
    expect(await meStatus(who.token)).toBe(200);
    await settle();
    expect(ownSocket.socket.connected).toBe(true);
    expect((await list(who.token)).map((s) => s.id)).toEqual([await sessionIdOf(who.token)]);

    const again = await server.request('DELETE', `/api/sessions/${await sessionIdOf(other)}`, { token: who.token });
    expect(again).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it("another user's session id is a 404 and nothing changes", async () => {
    const [owner, stranger] = [await buildUser(server), await buildUser(server)];
    const ownerSocket = await connect(owner.token);
    const target = await sessionIdOf(owner.token);

    for (const id of [target, 'not-a-session', crypto.randomUUID()]) {
      const res = await server.request('DELETE', `/api/sessions/${id}`, { token: stranger.token });
      expect(res).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
    expect(await meStatus(owner.token)).toBe(200);
    expect(await meStatus(stranger.token)).toBe(200);
    expect((await server.deps.db.manager.findOneByOrFail(SessionEntity, { id: target })).revokedAt).toBeNull();
    await settle();
    expect(ownerSocket.socket.connected).toBe(true);
    expect((await server.request('DELETE', `/api/sessions/${target}`)).status).toBe(401);
  });

  it('the current session is signed out as by Logout, its cookie cleared', async () => {
    const who = await buildUser(server);
    const res = await server.request('DELETE', `/api/sessions/${await sessionIdOf(who.token)}`, { token: who.token });
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/giftlink_session=;/);
    expect(await meStatus(who.token)).toBe(401);
  });
});

describe('POST /api/sessions/sign-out-others', () => {
  it('leaves only the current session; the others are refused and their sockets close', async () => {
    const who = await buildUser(server);
    const [phone, tablet] = [await login(who, { 'user-agent': IPHONE_SAFARI }), await login(who, { 'user-agent': FIREFOX_WINDOWS })];
    const keep = await login(who);
    const sockets = [await connect(phone), await connect(tablet), await connect(who.token)];
    const keptSocket = await connect(keep);
    const closed = Promise.all(sockets.map(disconnected));

    const res = await server.request<SignOutOthersResult>('POST', '/api/sessions/sign-out-others', { token: keep });
    expect(res).toMatchObject({ status: 200, body: { signedOut: 3 } });
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect', 'io server disconnect']);
    for (const token of [phone, tablet, who.token]) expect(await meStatus(token)).toBe(401);
    expect(await list(keep)).toEqual([expect.objectContaining({ id: await sessionIdOf(keep), current: true })]);
    await settle();
    expect(keptSocket.socket.connected).toBe(true);

    const none = await server.request<SignOutOthersResult>('POST', '/api/sessions/sign-out-others', { token: keep });
    expect(none.body).toEqual({ signedOut: 0 });
  });

  it('a cookie from another site signs nothing out (403)', async () => {
    const who = await buildUser(server);
    const res = await server.request<{ token: string }>('POST', '/api/auth/login', {
      body: { email: who.user.email, password: who.password },
    });
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    const evil = await server.request('POST', '/api/sessions/sign-out-others', { headers: { cookie, origin: 'http://evil.example' } });
    expect(evil.status).toBe(403);
    expect(await meStatus(who.token)).toBe(200);
  });
});

describe('last seen', () => {
  it('is written at most once a minute per session, by a conditional update when stale', async () => {
    const who = await buildUser(server);
    const id = await sessionIdOf(who.token);
    const lastSeen = async () => (await server.deps.db.manager.findOneByOrFail(SessionEntity, { id })).lastSeenAt.getTime();
    const setLastSeen = (at: Date) => server.deps.db.transaction((em) => em.update(SessionEntity, { id }, { lastSeenAt: at }));

    const fortySecondsAgo = new Date(Date.now() - 40_000);
    await setLastSeen(fortySecondsAgo);
    expect(await meStatus(who.token)).toBe(200);
    await connect(who.token);
    expect(await lastSeen()).toBe(fortySecondsAgo.getTime());

    await setLastSeen(new Date(Date.now() - 61_000));
    expect(await meStatus(who.token)).toBe(200);
    const touched = await lastSeen();
    expect(touched).toBeGreaterThan(Date.now() - 5_000);
    for (let i = 0; i < 3; i++) expect(await meStatus(who.token)).toBe(200);
    expect(await lastSeen()).toBe(touched);
    expect(Date.parse((await list(who.token))[0].lastSeenAt)).toBe(touched);
  });
});

describe.skipIf(!loadConfig().redisUrl)('signing out across API processes', () => {
  it('signing out a session on one process closes its sockets on the other', async () => {
    const second = await startTestServer({ share: server });
    try {
      const who = await buildUser(server);
      const other = await login(who, { 'user-agent': IPHONE_SAFARI });
      const onFirst = await connect(other);
      const onSecond = await connect(other, second);
      const keptOnSecond = await connect(who.token, second);
      const closed = Promise.all([disconnected(onFirst), disconnected(onSecond)]);
      const res = await server.request('DELETE', `/api/sessions/${await sessionIdOf(other)}`, { token: who.token });
      expect(res.status).toBe(204);
      expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
      expect(await meStatus(other, second)).toBe(401);
      await settle();
      expect(keptOnSecond.socket.connected).toBe(true);
    } finally {
      for (const c of open.splice(0)) c.close();
      await second.close();
    }
  });
});
