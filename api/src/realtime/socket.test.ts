import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, Tokens } from '../auth/tokens.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { MessageView } from './events.js';
import { buildConversation, connectClient, giveGift, settle, type ConnectOptions, type TestClient } from './testing.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

const connect = async (options: ConnectOptions) => {
  const client = await connectClient(server, options);
  open.push(client);
  return client;
};

const send = (client: TestClient, payload: Record<string, unknown>) =>
  client.socket.timeout(5000).emitWithAck('sendMessage', payload as { conversationId: string; text: string });

const messagesOf = async (who: TestUser, conversationId: string) =>
  (await server.request<{ messages: MessageView[] }>('GET', `/messages/${conversationId}?page=1`, { token: who.token })).body.messages;

describe('handshake', () => {
  it('refuses a connection without a token, with a bad one, or with one from before a password change', async () => {
    await expect(connectClient(server)).rejects.toMatchObject({ message: 'unauthorized', data: { error: 'unauthorized' } });
    await expect(connectClient(server, { token: 'not-a-token' })).rejects.toMatchObject({ message: 'unauthorized' });
    const [user] = await buildUsers(server, 1, 'hs');
    const claims = (await server.deps.tokens.verify(user.token))!;
    const forged = await new Tokens('x'.repeat(48)).sign(claims);
    await expect(connectClient(server, { token: forged })).rejects.toMatchObject({ message: 'unauthorized' });
    const pw = await server.request('PATCH', `/api/users/${user.user._id}`, {
      token: user.token,
      body: { password: 'brand-new-1', currentPassword: user.password },
    });
    expect(pw.status).toBe(200);
    await expect(connectClient(server, { token: user.token })).rejects.toMatchObject({ message: 'unauthorized' });
  });

  it('accepts auth.token, the x-auth-token header and the session cookie, but a cookie only from our own origin', async () => {
    const [user] = await buildUsers(server, 1, 'hs');
    expect((await connect({ token: user.token })).received('init')).toEqual([{ unreadMessages: 0, unreadNotifications: 0 }]);
    await connect({ headers: { 'x-auth-token': user.token } });
    const cookie = `${SESSION_COOKIE}=${user.token}`;
    await connect({ headers: { cookie, origin: server.url } });
    await connect({ headers: { cookie, origin: server.url }, transports: ['polling'] });
    await expect(connectClient(server, { headers: { cookie, origin: 'http://evil.example' } })).rejects.toMatchObject({
      message: 'forbidden',
    });
  });
});

describe('identity comes from the handshake', () => {
  it('a forged newUser changes nothing: the socket still is, hears and speaks as its own user', async () => {
    const [alice, bob, carol] = await buildUsers(server, 3, 'id');
    const aliceAndBob = await buildConversation(server, alice, bob, false);
    const bobAndCarol = await buildConversation(server, carol, bob, false);
    const socket = await connect({ token: alice.token });
    socket.socket.emit('newUser', bob.user._id);
    await socket.waitFor('init', () => socket.received('init').length === 2);

    // Bob's conversation with Carol is not Alice's to hear or to speak in.
    const bobClient = await connect({ token: bob.token });
    await send(bobClient, { conversationId: bobAndCarol.id, text: 'for carol only' });
    const refused = await send(socket, { conversationId: bobAndCarol.id, text: 'as bob?' });
    expect(refused).toMatchObject({ ok: false, error: { error: 'forbidden' } });

    const ack = await send(socket, { conversationId: aliceAndBob.id, text: 'hello bob' });
    expect(ack).toMatchObject({ ok: true, message: { senderUserId: alice.user._id, mine: true } });
    const atBob = await bobClient.waitFor('new-message', (e) => e.message.text === 'hello bob');
    expect(atBob.message).toMatchObject({ senderUserId: alice.user._id, mine: false });
    await settle();
    expect(JSON.stringify(socket.events)).not.toContain('for carol only');
  });

  it('a senderUserId naming someone else is refused over the socket and over HTTP, and nothing is stored', async () => {
    const [alice, bob] = await buildUsers(server, 2, 'id');
    const conversation = await buildConversation(server, alice, bob, false);
    const socket = await connect({ token: alice.token });
    const ack = await send(socket, { conversationId: conversation.id, senderUserId: bob.user._id, text: 'I am bob' });
    expect(ack).toEqual({ ok: false, error: { error: 'forbidden', message: 'You are not allowed to do that.' } });
    const http = await server.request('POST', '/messages/send', {
      token: alice.token,
      body: { conversationId: conversation.id, senderUserId: bob.user._id, text: 'I am bob' },
    });
    expect(http.status).toBe(403);
    expect(await messagesOf(bob, conversation.id)).toEqual([]);
    // Without an ack callback the refusal comes as an event.
    socket.socket.emit('sendMessage', { conversationId: conversation.id, senderUserId: bob.user._id, text: 'again' });
    expect(await socket.waitFor('realtime-error')).toMatchObject({ event: 'sendMessage', error: 'forbidden' });
  });
});

describe('membership', () => {
  it('a non-member cannot read, send to, find or catch up on a conversation (HTTP and socket)', async () => {
    const [alice, bob, outsider] = await buildUsers(server, 3, 'mb');
    const conversation = await buildConversation(server, alice, bob);
    const aliceClient = await connect({ token: alice.token });
    const first = await send(aliceClient, { conversationId: conversation.id, text: 'private' });
    if (!first.ok) throw new Error('send failed');
    const spy = await connect({ token: outsider.token });

    const as = { token: outsider.token };
    expect((await server.request('GET', `/messages/${conversation.id}?page=1`, as)).status).toBe(403);
    expect((await server.request('GET', `/conversations/find/${conversation.id}`, as)).status).toBe(403);
    expect((await server.request('POST', '/messages/send', { ...as, body: { conversationId: conversation.id, text: 'hi' } })).status).toBe(
      403,
    );
    expect((await server.request('GET', `/conversations/${alice.user._id}`, as)).status).toBe(403);
    expect((await server.request('POST', '/messages/send', { ...as, body: { conversationId: 'nope', text: 'hi' } })).status).toBe(404);

    expect(await send(spy, { conversationId: conversation.id, text: 'hi' })).toMatchObject({ ok: false, error: { error: 'forbidden' } });
    const catchUp = (payload: Record<string, unknown>) => spy.socket.timeout(5000).emitWithAck('last_message_id', payload);
    expect(await catchUp({ conversationId: conversation.id })).toMatchObject({ ok: false, error: { error: 'forbidden' } });
    // A message id from someone else's conversation is simply unknown.
    expect(await catchUp({ lastMessageId: first.message._id })).toMatchObject({ ok: false, error: { error: 'not_found' } });
    expect(await catchUp({})).toEqual({ ok: true, count: 0, hasMore: false });

    await send(aliceClient, { conversationId: conversation.id, text: 'still private' });
    await settle();
    expect(JSON.stringify(spy.events)).not.toContain('private');
    expect((await messagesOf(alice, conversation.id)).map((m) => m.text)).toEqual(['private', 'still private']);
  });
});

describe('delivery', () => {
  it('every client of the recipient, and the sender, gets a message once, presented for them', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'dl');
    const conversation = await buildConversation(server, giver, recipient);
    const phone = await connect({ token: recipient.token });
    const laptop = await connect({ token: recipient.token });
    const sender = await connect({ token: giver.token });

    const ack = await send(sender, { conversationId: conversation.id, text: 'over the socket', clientId: 'c-1' });
    if (!ack.ok) throw new Error('send failed');
    expect(ack.clientId).toBe('c-1');
    const http = await server.request('POST', '/messages/send', {
      token: giver.token,
      body: { conversationId: conversation.id, senderUserId: giver.user._id, text: '  over HTTP  ' },
    });
    expect(http.status).toBe(201);
    expect(http.body).toMatchObject({ _id: expect.any(String), message: { text: 'over HTTP', mine: true } });

    for (const client of [phone, laptop]) {
      await client.waitFor('new-message', (e) => e.message._id === http.body._id);
      const got = client.received('new-message');
      expect(got.map((e) => e.message.text)).toEqual(['over the socket', 'over HTTP']);
      expect(got.every((e) => e.message.senderUserId === 'anonymous' && !e.message.mine && e.clientId === undefined)).toBe(true);
    }
    await sender.waitFor('new-message', (e) => e.message._id === http.body._id);
    expect(sender.received('new-message').map((e) => [e.message.mine, e.clientId])).toEqual([
      [true, 'c-1'],
      [true, undefined],
    ]);
    await settle();
    expect(phone.received('new-message')).toHaveLength(2);
  });

  it('a client that missed five messages gets exactly those five after reconnecting, in order, once', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'mm');
    const conversation = await buildConversation(server, giver, recipient);
    const sender = await connect({ token: giver.token });
    let client = await connect({ token: recipient.token });
    const ack = await send(sender, { conversationId: conversation.id, text: 'before' });
    if (!ack.ok) throw new Error('send failed');
    const last = (await client.waitFor('new-message')).message;
    client.close();

    const missed: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const text = `missed ${i}`;
      if (i % 2) await send(sender, { conversationId: conversation.id, text });
      else await server.request('POST', '/messages/send', { token: giver.token, body: { conversationId: conversation.id, text } });
      missed.push(text);
    }

    client = await connect({ token: recipient.token });
    const answer = await client.socket
      .timeout(5000)
      .emitWithAck('last_message_id', { lastMessageId: last._id, conversationId: conversation.id });
    expect(answer).toEqual({ ok: true, count: 5, hasMore: false });
    const event = await client.waitFor('missed-messages');
    expect(event.conversationId).toBe(conversation.id);
    expect(event.messages.map((m) => m.text)).toEqual(missed);
    expect(event.messages.every((m) => m.senderUserId === 'anonymous')).toBe(true);
    const seqs = event.messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs[0]).toBeGreaterThan(last.seq);
    await settle();
    expect(client.received('missed-messages')).toHaveLength(1);
    expect(client.received('new-message')).toEqual([]);
  });

  it("catches up across all of the user's conversations in commit order, and pages with hasMore", async () => {
    const [a, b, recipient] = await buildUsers(server, 3, 'mx');
    const one = await buildConversation(server, a, recipient);
    const two = await buildConversation(server, b, recipient);
    const mark = await server.request<{ _id: string }>('POST', '/messages/send', {
      token: a.token,
      body: { conversationId: one.id, text: 'mark' },
    });
    const texts: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const [who, c] = i % 2 ? [b, two] : [a, one];
      await server.request('POST', '/messages/send', { token: who.token, body: { conversationId: c.id, text: `m${i}` } });
      texts.push(`m${i}`);
    }
    const client = await connect({ token: recipient.token });
    client.socket.emit('last_message_id', { lastMessageId: mark.body._id });
    const all = await client.waitFor('missed-messages');
    expect(all).toMatchObject({ conversationId: null, hasMore: false });
    expect(all.messages.map((m) => [m.text, m.conversationId])).toEqual(texts.map((t, i) => [t, i % 2 ? two.id : one.id]));

    const { missedMessages } = await import('../conversations/service.js');
    const firstPage = await missedMessages(server.deps.db, recipient.user._id, { lastMessageId: mark.body._id }, 3);
    expect(firstPage.hasMore).toBe(true);
    const rest = await missedMessages(server.deps.db, recipient.user._id, { lastMessageId: firstPage.messages[2]._id }, 3);
    expect([...firstPage.messages, ...rest.messages].map((m) => m.text)).toEqual(texts);
    expect(rest.hasMore).toBe(false);
  });
});

describe('presence', () => {
  it('is for people who talk by name, and shows nobody who just arrived', async () => {
    const [user, asker] = await buildUsers(server, 2, 'pr');
    const online = () => server.request('GET', `/api/onlineusers/${user.user._id}`, { token: asker.token });
    expect((await server.request('GET', `/api/onlineusers/${user.user._id}`)).status).toBe(401);
    expect((await online()).status).toBe(403);
    await buildConversation(server, asker, user, false);
    for (const who of [user, asker])
      await server.request('PATCH', `/api/users/${who.user._id}`, { token: who.token, body: { showPresence: true } });
    const one = await connect({ token: user.token });
    // A socket that has only just opened is not shown (presence.test.ts has the rule in full).
    expect((await online()).status).toBe(204);
    expect(await server.deps.realtime.presence.isOnline(user.user._id)).toBe(true);
    one.close();
    await expect.poll(() => server.deps.realtime.presence.count(user.user._id), { timeout: 3000 }).toBe(0);
  });
});

describe('anonymity over the socket', () => {
  it("no event the recipient receives in a gift conversation carries the giver's id, username or email", async () => {
    const [giver, recipient, creator, responder] = await buildUsers(server, 4, 'an');
    const phone = await connect({ token: recipient.token });
    const giverClient = await connect({ token: giver.token });

    // A gift to the recipient's receive link: the gift message and the notification arrive live.
    const { conversationId } = await giveGift(server, giver, recipient, 5);
    const gift = await phone.waitFor('new-message', (e) => e.conversationId === conversationId);
    expect(gift.message).toMatchObject({
      senderUserId: 'anonymous',
      messageType: 'gift',
      text: 'You received a gift of $5.00!',
      giftDetails: { title: '$5.00', giftType: 'currency', img: null },
    });
    expect(gift.message.seq).toBeGreaterThan(0);
    const notification = await phone.waitFor('getNotification');
    expect(notification).toMatchObject({ senderUserId: null, receiverUserId: recipient.user._id, amount: 5, conversationId });
    // The giver's own tab hears its gift message (as its own), never the recipient's notification.
    await giverClient.waitFor('new-message', (e) => e.conversationId === conversationId && e.message.mine);
    expect(giverClient.received('getNotification')).toEqual([]);

    // They chat, the recipient catches up on a second device, opens the thread, marks all read.
    await send(giverClient, { conversationId, text: 'enjoy it' });
    await send(phone, { conversationId, text: 'thank you, whoever you are' });
    phone.socket.emit('newUser', giver.user._id);
    const laptop = await connect({ token: recipient.token });
    laptop.socket.emit('last_message_id', {});
    await laptop.waitFor('missed-messages');
    await server.request('GET', `/messages/${conversationId}?page=1`, { token: recipient.token });
    await server.request('PUT', `/api/read-notifications/${recipient.user._id}`, { token: recipient.token });
    await laptop.waitFor('unread-counts', (c) => c.unreadNotifications === 0 && c.unreadMessages === 0);

    // A give link the creator made and the responder accepted: the responder knows the creator, so
    // that gift is named (and lives in a thread of its own, never an anonymous one).
    await server.request('POST', '/api/billing-settings-deposit', { token: creator.token, body: { balance: 10 } });
    await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 3, quantity: 1 } },
    });
    const responderClient = await connect({ token: responder.token });
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: responder.token,
      body: { linkCreatorUsername: creator.user.username },
    });
    expect(accepted.status).toBe(200);
    await responderClient.waitFor('getNotification');
    const acceptedGift = await responderClient.waitFor('new-message');
    expect(acceptedGift.message).toMatchObject({ senderUserId: creator.user._id, messageType: 'gift' });

    await settle();
    const text = JSON.stringify([phone, laptop].map((c) => c.events)).toLowerCase();
    expect(text).toContain('anonymous');
    for (const secret of [giver.user._id, giver.user.username, giver.user.email]) expect(text).not.toContain(secret.toLowerCase());
    expect(phone.received('new-message').map((e) => e.message.text)).toEqual([
      'You received a gift of $5.00!',
      'enjoy it',
      'thank you, whoever you are',
    ]);
  });
});

describe('sessions that end', () => {
  it('closes the sockets of the other sessions when the password changes; the new token connects', async () => {
    const [user] = await buildUsers(server, 1, 'pw');
    const client = await connect({ token: user.token });
    const closed = new Promise<string>((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
    const res = await server.request('PATCH', `/api/users/${user.user._id}`, {
      token: user.token,
      body: { password: 'brand-new-1', currentPassword: user.password },
    });
    expect(res.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    const fresh = await connect({ token: res.headers.get('x-auth-token')! });
    expect(fresh.socket.connected).toBe(true);
  });

  it('closes a socket when its token expires', async () => {
    const short = await startTestServer({ TOKEN_TTL_HOURS: String(2 / 3600) });
    try {
      const [user] = await buildUsers(short, 1, 'ttl');
      const client = await connectClient(short, { token: user.token });
      const closed = new Promise<string>((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
      expect(client.socket.connected).toBe(true);
      expect(await closed).toBe('io server disconnect');
    } finally {
      await short.close();
    }
  });
});
