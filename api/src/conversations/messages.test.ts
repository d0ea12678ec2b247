import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildConversation, connectClient, giveGift, type TestClient } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { MessageView } from './presenter.js';
import { loadConfig } from '../config.js';
import { recordGiftMessage } from './gift-message.js';
import { missedMessages } from './service.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

const sendHttp = (who: TestUser, body: unknown) => server.request('POST', '/messages/send', { token: who.token, body });
const unread = async (who: TestUser) =>
  (await server.request<{ unreadCount: number }>('GET', `/messages/unread?userId=${who.user._id}`, { token: who.token })).body.unreadCount;

describe('POST /messages/send', () => {
  it('answers 401, 400, 403 and 404 for the wrong caller or input', async () => {
    const [alice, bob, outsider] = await buildUsers(server, 3, 'sd');
    const c = await buildConversation(server, alice, bob, false);
    expect((await server.request('POST', '/messages/send', { body: { conversationId: c.id, text: 'hi' } })).status).toBe(401);
    expect(await sendHttp(alice, { conversationId: c.id, text: '   ' })).toMatchObject({
      status: 400,
      body: { error: 'validation_failed', message: 'text: must not be blank' },
    });
    expect((await sendHttp(alice, { conversationId: c.id, text: 'x'.repeat(2001) })).status).toBe(400);
    expect((await sendHttp(alice, { conversationId: c.id })).status).toBe(400);
    expect((await sendHttp(alice, { text: 'hi' })).status).toBe(400);
    expect((await sendHttp(alice, { conversationId: c.id, text: 42 })).status).toBe(400);
    expect((await sendHttp(alice, { conversationId: c.id, text: 'hi', senderUserId: bob.user._id })).status).toBe(403);
    expect((await sendHttp(outsider, { conversationId: c.id, text: 'hi' })).status).toBe(403);
    expect((await sendHttp(alice, { conversationId: crypto.randomUUID(), text: 'hi' })).status).toBe(404);
    const ok = await sendHttp(alice, { conversationId: c.id, text: 'x'.repeat(2000), senderUserId: alice.user._id });
    expect(ok).toMatchObject({ status: 201, body: { _id: expect.any(String) } });
  });

  it("becomes the conversation's last message for both members", async () => {
    const [alice, bob] = await buildUsers(server, 2, 'sl');
    const c = await buildConversation(server, alice, bob);
    await sendHttp(alice, { conversationId: c.id, text: 'first' });
    await sendHttp(bob, { conversationId: c.id, text: 'second' });
    const list = await server.request<{ _id: string; lastMessage: MessageView; otherUser: { username: string } }[]>(
      'GET',
      `/conversations/${bob.user._id}`,
      { token: bob.token },
    );
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ _id: c.id, lastMessage: { text: 'second', mine: true }, otherUser: { username: 'Anonymous' } });
  });

  it('refuses a flood of sends with 429', async () => {
    const [alice, bob] = await buildUsers(server, 2, 'fl');
    const c = await buildConversation(server, alice, bob);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => sendHttp(alice, { conversationId: c.id, text: `m${i}` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
  });
});

describe('message order', () => {
  it('numbers concurrent sends and gifts in the same conversations without gaps, repeats or deadlocks', async () => {
    const users = await buildUsers(server, 8, 'cc');
    const pairs = [0, 2, 4, 6].map((i) => [users[i], users[i + 1]] as const);
    const conversations = await Promise.all(pairs.map(([a, b]) => buildConversation(server, a, b)));
    const work: Promise<number>[] = [];
    for (let round = 0; round < 5; round += 1)
      pairs.forEach(([a, b], k) => {
        const conversationId = conversations[k].id;
        work.push(sendHttp(a, { conversationId, text: `a${round}` }).then((r) => r.status));
        work.push(sendHttp(b, { conversationId, text: `b${round}` }).then((r) => r.status));
        work.push(
          server.deps.db
            .transaction((em) =>
              recordGiftMessage(em, {
                giverId: a.user._id,
                recipientId: b.user._id,
                identity: 'anonymous',
                text: `g${round}`,
                gift: { title: 't', giftType: 'currency', img: null },
              }),
            )
            .then(() => 201),
        );
      });
    expect(new Set(await Promise.all(work))).toEqual(new Set([201]));
    const seqs = (
      await Promise.all(
        pairs.map(([a], k) => server.request<{ messages: MessageView[] }>('GET', `/messages/${conversations[k].id}`, { token: a.token })),
      )
    )
      .flatMap((r) => r.body.messages.map((m) => m.seq))
      .sort((x, y) => x - y);
    expect(seqs).toHaveLength(60);
    expect(seqs.at(-1)! - seqs[0]).toBe(59);
  });
});

/** Until a statement of another connection waits for a lock (PostgreSQL), at most two seconds. */
async function someoneWaitsForALock(): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const [waiting] = await server.deps.db.manager.query<{ n: string }[]>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (Number(waiting.n) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe('commit order', () => {
  const postgres = Boolean(loadConfig().databaseUrl);
  /** A gift from `giver` to `recipient`, written in a transaction left open; `commit` ends it. */
  async function openGift(giver: TestUser, recipient: TestUser) {
    const runner = server.deps.db.source.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const gift = await recordGiftMessage(runner.manager, {
      giverId: giver.user._id,
      recipientId: recipient.user._id,
      identity: 'anonymous',
      text: 'written first, committed last',
      gift: { title: 't', giftType: 'currency', img: null },
    });
    const end = async () => {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    };
    return { gift, commit: () => runner.commitTransaction(), end };
  }
  it.skipIf(!postgres)(
    'makes a message to a member of an uncommitted gift wait for its commit, and numbers it after (PostgreSQL)',
    async () => {
      const [giver, other, recipient] = await buildUsers(server, 3, 'co');
      const otherConversation = await buildConversation(server, other, recipient);
      const pending = await openGift(giver, recipient);
      try {
        let answered = false;
        const late = sendHttp(other, { conversationId: otherConversation.id, text: 'written second, committed second' }).then((r) => {
          answered = true;
          return r;
        });
        // It waits for the recipient's member lock, which the gift's transaction holds to its commit.
        expect(await someoneWaitsForALock()).toBe(true);
        expect(answered).toBe(false);
        await pending.commit();
        const sent = (await late) as { status: number; body: { _id: string; message: MessageView } };
        expect(sent.status).toBe(201);
        expect(sent.body.message.seq).toBeGreaterThan(pending.gift.message.seq!);
        // A client that holds the gift (committed first) gets the message committed after it.
        const missed = await missedMessages(server.deps.db, recipient.user._id, { lastMessageId: pending.gift.message.id });
        expect(missed.messages.map((m) => m.text)).toEqual(['written second, committed second']);
      } finally {
        await pending.end();
      }
    },
  );

  it.skipIf(!postgres)('numbers a message inserted without a number at its COMMIT, after its members are free (PostgreSQL)', async () => {
    const [giver, sender, recipient] = await buildUsers(server, 3, 'ct');
    const theirs = await buildConversation(server, sender, recipient);
    const pending = await openGift(giver, recipient);
    try {
      const id = crypto.randomUUID();
      // Another writer that takes no number itself: the commit trigger locks the members, then numbers it.
      const plain = server.deps.db.transaction((em) =>
        em.query(
          `INSERT INTO messages (id, conversation_id, sender_id, text, message_type, read, created_at) VALUES ($1, $2, $3, 'plain', 'normal', false, now())`,
          [id, theirs.id, sender.user._id],
        ),
      );
      expect(await someoneWaitsForALock()).toBe(true);
      await pending.commit();
      await plain;
      const [row] = await server.deps.db.manager.query<{ seq: string }[]>('SELECT seq FROM messages WHERE id = $1', [id]);
      expect(Number(row.seq)).toBeGreaterThan(pending.gift.message.seq!);
    } finally {
      await pending.end();
    }
  });

  it.skipIf(!postgres)('lets writers with no member in common commit without waiting for each other (PostgreSQL)', async () => {
    const [giver, recipient, alice, bob] = await buildUsers(server, 4, 'cp');
    const theirs = await buildConversation(server, alice, bob);
    const pending = await openGift(giver, recipient);
    try {
      const sent = await sendHttp(alice, { conversationId: theirs.id, text: 'not waiting' });
      expect(sent.status).toBe(201);
      // Committed while the gift is still open: it did not wait for it.
      const missed = await missedMessages(server.deps.db, bob.user._id, { lastMessageId: null });
      expect(missed.messages.map((m) => m.text)).toContain('not waiting');
      await pending.commit();
      const seen = await missedMessages(server.deps.db, recipient.user._id, { lastMessageId: null });
      expect(seen.messages.map((m) => m.text)).toEqual(['written first, committed last']);
    } finally {
      await pending.end();
    }
  });
});

describe('anonymous gifts', () => {
  it.skipIf(!loadConfig().databaseUrl)(
    "open one conversation when a giver's first two gifts race (PostgreSQL, concurrent writers: the second waits for the first's members)",
    async () => {
      const [giver, recipient] = await buildUsers(server, 2, 'ps');
      const db = server.deps.db;
      const gift = (text: string) => ({
        giverId: giver.user._id,
        recipientId: recipient.user._id,
        identity: 'anonymous' as const,
        text,
        gift: { title: 't', giftType: 'currency' as const, img: null },
      });
      const runner = db.source.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        // The first gift makes the pseudonym and holds it uncommitted.
        const first = await recordGiftMessage(runner.manager, gift('first'));
        const second = db.transaction((em) => recordGiftMessage(em, gift('second')));
        // The second waits for the members' locks, which the first holds to its commit; then its
        // statement's snapshot sees the pseudonym the first made.
        expect(await someoneWaitsForALock()).toBe(true);
        await runner.commitTransaction();
        const after = await second;
        expect(after.conversation.id).toBe(first.conversation.id);
        const [pseudonyms] = await db.manager.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM anonymous_pseudonyms WHERE giver_id = '${giver.user._id}' AND recipient_id = '${recipient.user._id}'`,
        );
        expect(Number(pseudonyms.n)).toBe(1);
        const missed = await missedMessages(db, recipient.user._id, { lastMessageId: null });
        expect(missed.messages.map((m) => m.text).sort()).toEqual(['first', 'second']);
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    },
  );
});

describe('GET /messages/{conversationId}', () => {
  it('pages 25 at a time, newest page first, each page in order', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pg');
    for (let i = 0; i < 30; i += 1)
      await server.deps.db.transaction((em) =>
        recordGiftMessage(em, {
          giverId: giver.user._id,
          recipientId: recipient.user._id,
          identity: 'anonymous',
          text: `g${i}`,
          gift: { title: 't', giftType: 'currency', img: null },
        }),
      );
    const c = (await server.request<{ _id: string }[]>('GET', `/conversations/${recipient.user._id}`, { token: recipient.token })).body[0];
    const page = async (n: number) =>
      (
        await server.request<{ messages: MessageView[]; markedAsRead: number }>('GET', `/messages/${c._id}?page=${n}`, {
          token: recipient.token,
        })
      ).body;
    const one = await page(1);
    expect(one.messages.map((m) => m.text)).toEqual(Array.from({ length: 25 }, (_, i) => `g${i + 5}`));
    expect(one.markedAsRead).toBe(30);
    const two = await page(2);
    expect(two.messages.map((m) => m.text)).toEqual(['g0', 'g1', 'g2', 'g3', 'g4']);
    expect(two.markedAsRead).toBe(0);
    expect((await page(3)).messages).toEqual([]);
  });
});

describe('unread counts', () => {
  it('rise with incoming messages and notifications and fall when the conversation is opened or all are marked read', async () => {
    const [giver, recipient, other] = await buildUsers(server, 3, 'uc');
    const phone = await connectClient(server, { token: recipient.token });
    const laptop = await connectClient(server, { token: recipient.token });
    open.push(phone, laptop);
    expect(phone.received('init')).toEqual([{ unreadMessages: 0, unreadNotifications: 0 }]);

    const { conversationId } = await giveGift(server, giver, recipient);
    await sendHttp(giver, { conversationId, text: 'one' });
    await sendHttp(giver, { conversationId, text: 'two' });
    await sendHttp(recipient, { conversationId, text: 'my own does not count' });
    expect(await unread(recipient)).toBe(3);
    expect(await unread(giver)).toBe(1);
    const fresh = await connectClient(server, { token: recipient.token });
    open.push(fresh);
    expect(fresh.received('init')).toEqual([{ unreadMessages: 3, unreadNotifications: 1 }]);
    const notifications = await server.request<{ read: 0 | 1 }[]>('GET', `/api/notifications/${recipient.user._id}`, {
      token: recipient.token,
    });
    expect(notifications.body.map((n) => n.read)).toEqual([0]);

    const opened = await server.request('GET', `/messages/${conversationId}?page=1`, { token: recipient.token });
    expect(opened.body.markedAsRead).toBe(3);
    expect(await unread(recipient)).toBe(0);
    // The gift's notification is read with its thread.
    for (const c of [phone, laptop]) expect(await c.waitFor('unread-counts')).toEqual({ unreadMessages: 0, unreadNotifications: 0 });

    // A gift in another thread is left for Mark all read.
    await giveGift(server, other, recipient);
    for (const c of [phone, laptop]) await c.waitFor('getNotification');

    const marked = await server.request('PUT', `/api/read-notifications/${recipient.user._id}`, { token: recipient.token });
    expect(marked).toMatchObject({ status: 200, body: { markedAsRead: 1 } });
    for (const c of [phone, laptop])
      expect(await c.waitFor('unread-counts', (n) => n.unreadNotifications === 0 && n.unreadMessages === 1)).toEqual({
        unreadMessages: 1,
        unreadNotifications: 0,
      });
    phone.socket.emit('newUser');
    expect(await phone.waitFor('init', () => phone.received('init').length === 2)).toEqual({ unreadMessages: 1, unreadNotifications: 0 });
  });
});
