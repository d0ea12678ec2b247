import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { connectClient, settle, type TestClient } from '../realtime/testing.js';
import { buildUser, buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SessionEntity } from './entity.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

interface Login {
  token: string;
  /** `giftlink_session=…`, as a browser sends it back. */
  cookie: string;
}

const login = async (who: TestUser, on = server, userAgent = 'vitest'): Promise<Login> => {
  const res = await on.request<{ token: string }>('POST', '/api/auth/login', {
    body: { email: who.user.email, password: who.password },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(200);
  return { token: res.body.token, cookie: res.headers.get('set-cookie')!.split(';')[0] };
};

const meWith = async (options: { token?: string; cookie?: string }, on = server) =>
  (await on.request('GET', '/api/auth/me', { token: options.token, headers: options.cookie ? { cookie: options.cookie } : {} })).status;

const connect = async (options: Parameters<typeof connectClient>[1], on = server) => {
  const client = await connectClient(on, options);
  open.push(client);
  return client;
};

/** The reason the server gave for closing the socket; fails when it stays open for 5 s. */
const disconnected = (client: TestClient) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed open')), 5000);
    client.socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

const sessionOf = async (token: string, on = server) => {
  const claims = (await on.deps.tokens.verify(token))!;
  return on.deps.db.manager.findOneByOrFail(SessionEntity, { id: claims.sessionId });
};

describe('logout ends the session on the server', () => {
  it('refuses the old cookie and the old token afterwards; another session of the same user goes on', async () => {
    const who = await buildUser(server);
    const browser = await login(who);
    const phone = await login(who);
    expect(await meWith({ cookie: browser.cookie })).toBe(200);

    const out = await server.request('POST', '/api/auth/logout', { headers: { cookie: browser.cookie, origin: server.url } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/giftlink_session=;/);

    expect(await meWith({ cookie: browser.cookie })).toBe(401);
    expect(await meWith({ token: browser.token })).toBe(401);
    const write = await server.request('PATCH', `/api/users/${who.user._id}`, { token: browser.token, body: { bio: 'still me?' } });
    expect(write.status).toBe(401);
    expect(await meWith({ token: phone.token })).toBe(200);
    expect(await meWith({ token: who.token })).toBe(200); // the registration's session too
    expect((await sessionOf(browser.token)).revokedAt).toBeInstanceOf(Date);
  });

  it('logs out by x-auth-token too, and answers 204 with no session or an ended one', async () => {
    const who = await buildUser(server);
    const desktop = await login(who);
    expect((await server.request('POST', '/api/auth/logout', { token: desktop.token })).status).toBe(204);
    expect(await meWith({ token: desktop.token })).toBe(401);
    expect((await server.request('POST', '/api/auth/logout', { token: desktop.token })).status).toBe(204);
    expect((await server.request('POST', '/api/auth/logout')).status).toBe(204);
    expect(await meWith({ token: who.token })).toBe(200);
  });

  it('a cookie sent with a write from another site identifies no one: 403, and a cross-site logout ends nothing', async () => {
    const who = await buildUser(server);
    const browser = await login(who);
    const evil = { cookie: browser.cookie, origin: 'http://evil.example' };
    const write = await server.request('PATCH', `/api/users/${who.user._id}`, { headers: evil, body: { bio: 'pwned' } });
    expect(write).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await server.request('POST', '/api/auth/logout', { headers: evil })).status).toBe(204);
    expect(await meWith({ cookie: browser.cookie })).toBe(200);
    const same = await server.request('PATCH', `/api/users/${who.user._id}`, {
      headers: { ...evil, origin: server.url },
      body: { bio: 'mine' },
    });
    expect(same.status).toBe(200);
  });

  it('a cookie sent with a write that names no origin (neither Origin nor Referer) identifies no one either', async () => {
    const who = await buildUser(server);
    const browser = await login(who);
    const write = await server.request('PATCH', `/api/users/${who.user._id}`, {
      headers: { cookie: browser.cookie },
      body: { bio: 'pwned' },
    });
    expect(write).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await server.request('POST', '/api/auth/logout', { headers: { cookie: browser.cookie } })).status).toBe(204);
    expect(await meWith({ cookie: browser.cookie })).toBe(200);
    // A page of ours whose Referer is all it names still writes, and reads need no origin.
    const referred = await server.request('PATCH', `/api/users/${who.user._id}`, {
      headers: { cookie: browser.cookie, referer: `${server.url}/profile` },
      body: { bio: 'mine' },
    });
    expect(referred.status).toBe(200);
    // The desktop app and API clients name their token, not a cookie: no origin needed.
    expect((await server.request('PATCH', `/api/users/${who.user._id}`, { token: browser.token, body: { bio: 'desk' } })).status).toBe(200);
  });

  it("closes that session's sockets, which cannot reconnect with it; the other session's socket stays", async () => {
    const [who] = await buildUsers(server, 1, 'out');
    const browser = await login(who);
    const viaCookie = await connect({ headers: { cookie: browser.cookie, origin: server.url } });
    const viaToken = await connect({ token: browser.token });
    const other = await connect({ token: who.token });
    const closed = Promise.all([disconnected(viaCookie), disconnected(viaToken)]);

    expect((await server.request('POST', '/api/auth/logout', { headers: { cookie: browser.cookie, origin: server.url } })).status).toBe(
      204,
    );
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    await settle();
    expect(other.socket.connected).toBe(true);
    other.socket.emit('newUser');
    await other.waitFor('init', () => other.received('init').length === 2);

    await expect(connectClient(server, { token: browser.token })).rejects.toMatchObject({ message: 'unauthorized' });
    await expect(connectClient(server, { headers: { cookie: browser.cookie, origin: server.url } })).rejects.toMatchObject({
      message: 'unauthorized',
    });
  });
});

describe('a password change ends every other session', () => {
  it("over HTTP and on their sockets; the changer's new session and other users carry on", async () => {
    const [who, bystander] = await buildUsers(server, 2, 'pwc');
    const phone = await login(who);
    const phoneSocket = await connect({ token: phone.token });
    const ownSocket = await connect({ token: who.token });
    const bystanderSocket = await connect({ token: bystander.token });
    const closed = Promise.all([disconnected(phoneSocket), disconnected(ownSocket)]);

    const res = await server.request('PATCH', `/api/users/${who.user._id}`, {
      token: who.token,
      body: { password: 'brand-new-2', currentPassword: who.password },
    });
    expect(res.status).toBe(200);
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    const fresh = res.headers.get('x-auth-token')!;
    expect(res.headers.get('set-cookie')).toContain(`giftlink_session=${fresh}`);
    expect(await meWith({ token: phone.token })).toBe(401);
    expect(await meWith({ token: who.token })).toBe(401);
    expect(await meWith({ token: fresh })).toBe(200);
    await expect(connectClient(server, { token: phone.token })).rejects.toMatchObject({ message: 'unauthorized' });
    expect((await connect({ token: fresh })).socket.connected).toBe(true);
    await settle();
    expect(bystanderSocket.socket.connected).toBe(true);
  });
});

describe('the session a token names must be alive', () => {
  it('refuses an expired, a revoked, a missing or another user’s session at the handshake and over HTTP', async () => {
    const [expired, revoked, victim, thief] = await buildUsers(server, 4, 'alive');
    const update = (token: string, changes: Partial<{ expiresAt: Date; revokedAt: Date }>) =>
      sessionOf(token).then((s) => server.deps.db.transaction((em) => em.update(SessionEntity, { id: s.id }, changes)));
    await update(expired.token, { expiresAt: new Date(Date.now() - 1000) });
    await update(revoked.token, { revokedAt: new Date() });
    const victimSession = await sessionOf(victim.token);
    const claims = { expiresAt: new Date(Date.now() + 3600_000) };
    const stolen = await server.deps.tokens.sign({ ...claims, userId: thief.user._id, sessionId: victimSession.id });
    const missing = await server.deps.tokens.sign({ ...claims, userId: victim.user._id, sessionId: crypto.randomUUID() });

    for (const token of [expired.token, revoked.token, stolen, missing]) {
      await expect(connectClient(server, { token })).rejects.toMatchObject({ message: 'unauthorized', data: { error: 'unauthorized' } });
      expect(await meWith({ token })).toBe(401);
    }
    expect((await connect({ token: victim.token })).socket.connected).toBe(true);
    expect((await connect({ token: thief.token })).socket.connected).toBe(true);
  });

  it('keeps what a sessions screen needs: the user agent, and when it was last used (written at most once a minute)', async () => {
    const who = await buildUser(server);
    const { token } = await login(who, server, 'Giftlink-Desktop/1.0');
    const session = await sessionOf(token);
    expect(session).toMatchObject({ userId: who.user._id, userAgent: 'Giftlink-Desktop/1.0', revokedAt: null });
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBe(server.deps.config.tokenTtlHours * 3600 * 1000);

    expect(await meWith({ token })).toBe(200);
    expect((await sessionOf(token)).lastSeenAt.getTime()).toBe(session.lastSeenAt.getTime());
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await server.deps.db.transaction((em) => em.update(SessionEntity, { id: session.id }, { lastSeenAt: longAgo }));
    expect(await meWith({ token })).toBe(200);
    expect((await sessionOf(token)).lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe.skipIf(!loadConfig().redisUrl)('logout across API processes', () => {
  it('a logout on one process closes the session’s sockets on the other', async () => {
    const second = await startTestServer({ share: server });
    try {
      const [who] = await buildUsers(server, 1, 'mnout');
      const browser = await login(who);
      const onFirst = await connect({ token: browser.token });
      const onSecond = await connect({ token: browser.token }, second);
      const otherSession = await connect({ token: who.token }, second);
      const closed = Promise.all([disconnected(onFirst), disconnected(onSecond)]);
      expect((await second.request('POST', '/api/auth/logout', { token: browser.token })).status).toBe(204);
      expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
      expect(await meWith({ token: browser.token }, server)).toBe(401);
      await settle();
      expect(otherSession.socket.connected).toBe(true);
    } finally {
      for (const c of open.splice(0)) c.close();
      await second.close();
    }
  });
});
