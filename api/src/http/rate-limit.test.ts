import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SOCKETS_PER_USER } from '../realtime/socket.js';
import { buildConversation, connectClient, settle, type TestClient } from '../realtime/testing.js';
import { buildUsers, startTestServer, type Reply, type TestServer, type TestUser } from '../testing/server.js';

// Small limits, behind one proxy hop: each test is a client address of its own (X-Forwarded-For,
// whose rightmost entry our proxy wrote). At 120 a minute the tighter routes get 2 uploads
// (a sixtieth) and 12 searches and link opens (a tenth).
const API_RATE_LIMIT = 120;
let server: TestServer;
const sockets: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer({
    API_RATE_LIMIT: String(API_RATE_LIMIT),
    API_RATE_WINDOW_SECONDS: '60',
    AUTH_RATE_LIMIT: '3',
    TRUST_PROXY: 'true',
    TRUST_PROXY_HOPS: '1',
  });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => server?.close());

let addresses = 0;
const newAddress = () => `192.0.2.${(addresses += 1)}`;

const call = (method: string, path: string, address: string, options: { token?: string; body?: unknown; forwardedFor?: string } = {}) =>
  server.request(method, path, {
    token: options.token,
    body: options.body,
    headers: { 'x-forwarded-for': options.forwardedFor ?? address },
  });

/** The 429 every limit answers: JSON `{ error: 'rate_limited', message }`, from the middleware with a Retry-After in seconds. */
function expectLimited(res: Reply, message?: string, retryAfterHeader = true): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'rate_limited', message: message ?? expect.any(String) });
  if (!retryAfterHeader) return;
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** `n` calls at once; none of them may be refused. */
async function spend(n: number, make: () => Promise<Reply>): Promise<void> {
  const statuses = (await Promise.all(Array.from({ length: n }, make))).map((r) => r.status);
  expect(statuses.filter((s) => s === 429)).toEqual([]);
}

describe('the default limit on every API route', () => {
  it(`answers 429 past API_RATE_LIMIT requests per client address, and counts each address on its own`, async () => {
    const address = newAddress();
    await spend(API_RATE_LIMIT, () => call('GET', '/links/all', address));
    expectLimited(await call('GET', '/links/all', address));
    // Any route, any method: it is one counter per client.
    expectLimited(await call('POST', '/api/auth/login', address, { body: { email: 'a@example.com', password: 'x' } }));
    expectLimited(await call('GET', '/no/such/route', address));
    expect((await call('GET', '/links/all', newAddress())).status).toBe(200);
    // The health check and the website are not API routes.
    expect((await call('GET', '/healthz', address)).status).toBe(200);
    expect((await call('GET', '/readyz', address)).status).toBe(200);
  });

  it('counts a signed-in user as one client wherever they call from, apart from their address', async () => {
    const [heavy, neighbour] = await buildUsers(server, 2, 'rl');
    const address = newAddress();
    await spend(API_RATE_LIMIT, () => call('GET', '/api/auth/me', address, { token: heavy.token }));
    expectLimited(await call('GET', '/api/auth/me', address, { token: heavy.token }));
    expectLimited(await call('GET', '/api/auth/me', newAddress(), { token: heavy.token }));
    expect((await call('GET', '/api/auth/me', address, { token: neighbour.token })).status).toBe(200);
    expect((await call('GET', '/links/all', address)).status).toBe(200);
  });
});

describe('tighter limits', () => {
  const upload = (who: TestUser) => {
    const data = new FormData();
    data.append('pfpOrCover', 'profilePicture');
    data.append('file', new Blob([Buffer.from('not an image')], { type: 'image/png' }), 'x.png');
    return server.request('POST', '/api/upload', { token: who.token, body: data, headers: { 'x-forwarded-for': newAddress() } });
  };

  it('uploads: 2 a minute per user at this setting, before the file is read', async () => {
    const [uploader, other] = await buildUsers(server, 2, 'up');
    // Not an image: refused with a 4xx of its own, and still counted.
    for (let i = 0; i < 2; i += 1) expect((await upload(uploader)).status).toBe(415);
    expectLimited(await upload(uploader), 'Too many uploads. Please wait a minute and try again.');
    expect((await upload(other)).status).toBe(415);
  });

  it('catalogue search: 12 a minute per user at this setting', async () => {
    const [searcher, other] = await buildUsers(server, 2, 'se');
    const search = (who: TestUser) => call('GET', '/api/products/search?q=mug', newAddress(), { token: who.token });
    await spend(12, () => search(searcher));
    expectLimited(await search(searcher), 'Too many searches. Please wait a moment and try again.');
    expect((await search(other)).status).toBe(200);
    // The searcher's other calls are not held back by it.
    expect((await call('GET', '/links/all', newAddress(), { token: searcher.token })).status).toBe(200);
  });

  it('opening a link page: 12 a minute per client at this setting', async () => {
    const [creator] = await buildUsers(server, 1, 'lo');
    const made = await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
    });
    expect(made.status).toBe(201);
    const address = newAddress();
    const openLink = (from: string) => call('POST', `/links/${creator.user.username}`, from, { body: {} });
    await spend(12, () => openLink(address));
    expectLimited(await openLink(address));
    expect((await openLink(newAddress())).status).toBe(200);
  });

  it('message sends: a burst of 10 per user, over HTTP and the socket together', async () => {
    const [alice, bob] = await buildUsers(server, 2, 'ms');
    const conversation = await buildConversation(server, alice, bob, false);
    const body = (i: number) => ({ conversationId: conversation.id, text: `m${i}` });
    for (let i = 0; i < 6; i += 1)
      expect((await call('POST', '/messages/send', newAddress(), { token: alice.token, body: body(i) })).status).toBe(201);
    const socket = await connectClient(server, { token: alice.token });
    sockets.push(socket);
    for (let i = 6; i < 10; i += 1)
      expect(await socket.socket.timeout(5000).emitWithAck('sendMessage', body(i))).toMatchObject({ ok: true });
    const refused = await socket.socket.timeout(5000).emitWithAck('sendMessage', body(10));
    expect(refused).toEqual({ ok: false, error: { error: 'rate_limited', message: 'You are sending messages too quickly.' } });
    expectLimited(
      await call('POST', '/messages/send', newAddress(), { token: alice.token, body: body(11) }),
      'You are sending messages too quickly.',
      false,
    );
    // Only the sender is held back.
    expect((await call('POST', '/messages/send', newAddress(), { token: bob.token, body: body(12) })).status).toBe(201);
  });

  it(`sockets: ${MAX_SOCKETS_PER_USER} open at once per user; the next handshake is refused until one closes`, async () => {
    const [user, other] = await buildUsers(server, 2, 'so');
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i += 1) sockets.push(await connectClient(server, { token: user.token }));
    await expect(connectClient(server, { token: user.token })).rejects.toMatchObject({
      message: 'rate_limited',
      data: { error: 'rate_limited', message: expect.any(String) },
    });
    sockets.push(await connectClient(server, { token: other.token }));
    sockets.shift()!.close();
    await settle(300);
    sockets.push(await connectClient(server, { token: user.token }));
    expect(await server.deps.realtime.presence.count(user.user._id)).toBe(MAX_SOCKETS_PER_USER);
  });

  it('sockets: many handshakes at once leave at most the cap open', async () => {
    const [user] = await buildUsers(server, 1, 'sr');
    const attempts = await Promise.allSettled(
      Array.from({ length: MAX_SOCKETS_PER_USER + 8 }, () => connectClient(server, { token: user.token, waitForInit: false })),
    );
    for (const a of attempts) if (a.status === 'fulfilled') sockets.push(a.value);
    await settle(500);
    const open = sockets.filter((s) => s.socket.connected).length;
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThanOrEqual(MAX_SOCKETS_PER_USER);
    expect(await server.deps.realtime.presence.count(user.user._id)).toBe(open);
  });
});

describe('the client address behind a proxy', () => {
  const login = (forwardedFor: string) =>
    call('POST', '/api/auth/login', '', { forwardedFor, body: { email: 'nobody@example.com', password: 'wrong-password' } });

  it('a made-up X-Forwarded-For does not reset the login limit behind one proxy hop', async () => {
    const client = newAddress();
    const statuses: number[] = [];
    // The client writes whatever it likes on the left; our proxy appends the address it saw.
    for (let i = 0; i < 40; i += 1) statuses.push((await login(`203.0.113.${i + 1}, ${client}`)).status);
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual(Array(37).fill(429));
    expectLimited(await login(`${newAddress()}, 10.0.0.1, ${client}`));
    // Another client behind the same proxy is not held back.
    expect((await login(`203.0.113.1, ${newAddress()}`)).status).not.toBe(429);
  });

  it('with TRUST_PROXY_HOPS=2 the client is the second entry from the right', async () => {
    const twoHops = await startTestServer({ AUTH_RATE_LIMIT: '2', TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' });
    try {
      const attempt = (forwardedFor: string) =>
        twoHops.request('POST', '/api/auth/login', {
          headers: { 'x-forwarded-for': forwardedFor },
          body: { email: 'nobody@example.com', password: 'wrong-password' },
        });
      const statuses = [];
      for (const spoof of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) statuses.push((await attempt(`${spoof}, 198.18.0.7, 10.0.0.2`)).status);
      expect(statuses[2]).toBe(429);
      expect((await attempt('1.1.1.1, 198.18.0.8, 10.0.0.2')).status).not.toBe(429);
    } finally {
      await twoHops.close();
    }
  });
});
