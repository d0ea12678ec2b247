import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { buildConversation, connectClient, settle, type TestClient } from './testing.js';

/**
 * Two API processes' worth of servers (two ports, two database connections, two socket.io
 * servers) sharing one database and one Redis: what REDIS_URL turns on. CI sets REDIS_URL.
 */
describe.skipIf(!loadConfig().redisUrl)('several API processes through Redis', () => {
  let first: TestServer;
  let second: TestServer;
  const open: TestClient[] = [];

  beforeAll(async () => {
    first = await startTestServer({ PRESENCE_SETTLE_SECONDS: '0.5' });
    second = await startTestServer({ share: first, PRESENCE_SETTLE_SECONDS: '0.5' });
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const connect = async (server: TestServer, token: string) => {
    const client = await connectClient(server, { token });
    open.push(client);
    return client;
  };

  it('counts login attempts across both processes', async () => {
    const a = await startTestServer({ AUTH_RATE_LIMIT: '4' });
    const b = await startTestServer({ share: a, AUTH_RATE_LIMIT: '4' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const server = i % 2 === 0 ? a : b;
        const res = await server.request('POST', '/api/auth/login', { body: { email: 'who@example.com', password: 'secret' } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('runs in multi-node mode on two ports', () => {
    expect(first.deps.realtime.multiNode && second.deps.realtime.multiNode).toBe(true);
    expect(first.url).not.toBe(second.url);
  });

  it('a client on the first receives within a second what a client on the second sends', async () => {
    const [giver, recipient] = await buildUsers(first, 2, 'mn');
    const conversation = await buildConversation(first, giver, recipient);
    const onFirst = await connect(first, recipient.token);
    const alsoOnSecond = await connect(second, recipient.token);
    const sender = await connect(second, giver.token);

    const started = Date.now();
    const ack = await sender.socket.timeout(2000).emitWithAck('sendMessage', { conversationId: conversation.id, text: 'across nodes' });
    expect(ack.ok).toBe(true);
    const got = await onFirst.waitFor('new-message', (e) => e.message.text === 'across nodes', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(got.message).toMatchObject({ senderUserId: 'anonymous', mine: false });
    await alsoOnSecond.waitFor('new-message', (e) => e.message.text === 'across nodes', 1000);

    // Over HTTP on the first, heard on the second; opening it on the second lowers the badge on the first.
    const http = await first.request('POST', '/messages/send', {
      token: giver.token,
      body: { conversationId: conversation.id, text: 'via http' },
    });
    expect(http.status).toBe(201);
    await alsoOnSecond.waitFor('new-message', (e) => e.message.text === 'via http', 1000);
    await second.request('GET', `/messages/${conversation.id}`, { token: recipient.token });
    expect(await onFirst.waitFor('unread-counts', () => true, 1000)).toEqual({ unreadMessages: 0, unreadNotifications: 0 });
    expect(onFirst.received('new-message')).toHaveLength(2);
  });

  it('presence answers the same on both processes, by the same coarse rule', async () => {
    const [user, asker] = await buildUsers(first, 2, 'mp');
    await buildConversation(first, asker, user, false); // presence is for people who talk by name
    for (const who of [user, asker])
      await first.request('PATCH', `/api/users/${who.user._id}`, { token: who.token, body: { showPresence: true } });
    const status = async () =>
      Promise.all(
        [first, second].map(async (s) => (await s.request('GET', `/api/onlineusers/${user.user._id}`, { token: asker.token })).status),
      );
    expect(await status()).toEqual([204, 204]);
    const client = await connect(second, user.token);
    // Only once a socket has been open for the settle time (0.5 s here).
    expect(await status()).toEqual([204, 204]);
    await expect.poll(status, { timeout: 3000, interval: 50 }).toEqual([200, 200]);
    // A socket on the other process carries the same stretch on: still shown when the first closes.
    const other = await connect(first, user.token);
    client.close();
    await settle(100);
    expect(await status()).toEqual([200, 200]);
    other.close();
    // Still shown just after the last one closed, then not.
    await settle(100);
    expect(await status()).toEqual([200, 200]);
    await expect.poll(status, { timeout: 3000, interval: 50 }).toEqual([204, 204]);
    expect(await first.deps.realtime.presence.count(user.user._id)).toBe(0);
  });
});
