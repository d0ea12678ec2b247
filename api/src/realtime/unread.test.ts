import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../conversations/service.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { buildConversation, connectClient, giveGift } from './testing.js';
import { unreadCounts } from './unread.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('unread counts asked for at once', () => {
  it('are read together and each user gets their own', async () => {
    const [giver, alice, bob, carol] = await buildUsers(server, 4, 'ub');
    const deps = { db: server.deps.db, realtime: server.deps.realtime, limits: server.deps.limits, messagesPerMinute: 600 };
    // Alice: a gift (a message and a notification) and one more message; Bob: two messages, one
    // as initiator of his conversation; Carol: only what she sent herself, which never counts.
    await giveGift(server, giver, alice);
    const aliceAndBob = await buildConversation(server, alice, bob, false);
    const carolAndBob = await buildConversation(server, bob, carol, false);
    await sendMessage(deps, giver.user._id, { conversationId: (await giveGift(server, giver, alice)).conversationId, text: 'more' });
    await sendMessage(deps, alice.user._id, { conversationId: aliceAndBob.id, text: 'hi bob' });
    await sendMessage(deps, carol.user._id, { conversationId: carolAndBob.id, text: 'hi bob, from carol' });
    await sendMessage(deps, bob.user._id, { conversationId: carolAndBob.id, text: 'hi carol' });

    const [a, b, c, again] = await Promise.all([
      unreadCounts(server.deps.db, alice.user._id),
      unreadCounts(server.deps.db, bob.user._id),
      unreadCounts(server.deps.db, giver.user._id),
      unreadCounts(server.deps.db, alice.user._id),
    ]);
    // Two gifts in one anonymous thread (two gift messages, two notifications) and the giver's message.
    expect(a).toEqual({ unreadMessages: 3, unreadNotifications: 2 });
    expect(again).toEqual(a);
    expect(b).toEqual({ unreadMessages: 2, unreadNotifications: 0 });
    expect(c).toEqual({ unreadMessages: 0, unreadNotifications: 0 });

    // Sockets connecting together get them as `init`.
    const clients = await Promise.all([alice, bob, carol].map((u) => connectClient(server, { token: u.token })));
    try {
      expect(clients.map((cl) => cl.received('init'))).toEqual([
        [{ unreadMessages: 3, unreadNotifications: 2 }],
        [{ unreadMessages: 2, unreadNotifications: 0 }],
        [{ unreadMessages: 1, unreadNotifications: 0 }],
      ]);
    } finally {
      for (const cl of clients) cl.close();
    }
  });
});
