import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagesPage } from '../../contract/conversations.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

/**
 * A give (`POST /statuses/api/gives`): its route is in routes.ts, its check in give-check.ts, its
 * command in give-to-link.ts. Over real HTTP, against the real database.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const receiveLink = async (who: TestUser, details: Record<string, unknown>) =>
  (
    await server.request<{ id: string }>('POST', '/links/create', {
      token: who.token,
      body: { details: { giveorreceive: 'receive', ...details } },
    })
  ).body.id;

const give = (who: TestUser, body: Record<string, unknown>, key?: string) =>
  server.request<{ give: { _id: string }; conversationId: string; message?: string; error?: string }>('POST', '/statuses/api/gives', {
    token: who.token,
    body,
    headers: key ? { 'Idempotency-Key': key } : {},
  });

const messagesOf = async (who: TestUser, conversationId: string) =>
  (await server.request<MessagesPage>('GET', `/messages/${conversationId}?page=1`, { token: who.token })).body.messages;

describe('giving to a receive link', () => {
  it("gives to a receive link in one call, with the spec's refusals", async () => {
    const [fay, gus, poor] = await buildUsers(server, 3, 'fay');
    await depositFor(server, gus, 20);
    const link = { id: await receiveLink(fay, { type: 'currency', amount: 10, quantity: 2 }) };
    const own = await server.request('POST', '/statuses/api/gives', {
      token: fay.token,
      body: { postId: link.id, type: 'currency', amount: 5 },
    });
    expect(own.body.message).toBe('You cannot give to your own post!');
    const broke = await server.request('POST', '/statuses/api/gives', {
      token: poor.token,
      body: { postId: link.id, type: 'currency', amount: 5 },
    });
    expect(broke.body.message).toBe('Add money to your account balance.');
    const bad = await server.request('POST', '/statuses/api/gives', { token: gus.token, body: { postId: link.id, amount: 0.5 } });
    expect(bad.body.message).toBe('Please enter a valid amount above $1');

    const key = { 'Idempotency-Key': 'give-gus-1' };
    const [a, b] = await Promise.all([
      server.request('POST', '/statuses/api/gives', {
        token: gus.token,
        headers: key,
        body: { postId: link.id, type: 'currency', amount: 5 },
      }),
      server.request('POST', '/statuses/api/gives', {
        token: gus.token,
        headers: key,
        body: { postId: link.id, type: 'currency', amount: 5 },
      }),
    ]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.give._id).toBe(b.body.give._id);
    expect(await balanceOfUser(server, gus)).toBe(15);
    expect(await balanceOfUser(server, fay)).toBe(5);
    const confirm = await server.request('PUT', `/statuses/api/statuses/${link.id}/give`, {
      token: gus.token,
      body: { type: 'currency', giveUserId: gus.user._id, giveId: a.body.give._id },
    });
    expect(confirm.body).toEqual({ ok: true });
    await expectLedgerSound(server.deps.db);
  });

  it('lands as one gift: the money, the anonymous gift message with the note after it, and the notification', async () => {
    const [rae, sol] = await buildUsers(server, 2, 'rae');
    await depositFor(server, sol, 10);
    const postId = await receiveLink(rae, { type: 'currency', amount: 4 });
    const given = await give(sol, { postId, amount: 4, note: 'happy birthday' });
    expect(given.status).toBe(201);
    expect(await balanceOfUser(server, sol)).toBe(6);
    expect(await balanceOfUser(server, rae)).toBe(4);
    const seen = await messagesOf(rae, given.body.conversationId);
    expect(seen.map((m) => [m.messageType, m.text, m.mine])).toEqual([
      ['gift', 'You received a gift of $4.00!', false],
      ['normal', 'happy birthday', false],
    ]);
    const conversation = await server.request<{ otherUser: { username: string } }>(
      'GET',
      `/conversations/find/${given.body.conversationId}`,
      {
        token: rae.token,
      },
    );
    expect(conversation.body.otherUser.username).toBe('Anonymous');
    const notices = await server.request<{ message: string }[]>('GET', `/api/notifications/${rae.user._id}`, { token: rae.token });
    expect(notices.body.map((n) => n.message)).toContain('You received a gift of $4.00!');
    await expectLedgerSound(server.deps.db);
  });

  it('moves nothing and writes nothing when a late step refuses it: a second give of the same giver', async () => {
    const [tia, uma] = await buildUsers(server, 2, 'tia');
    await depositFor(server, uma, 10);
    const postId = await receiveLink(tia, { type: 'currency', amount: 5, quantity: 3 });
    const first = await give(uma, { postId, amount: 2 });
    expect(first.status).toBe(201);
    // The use is the give's last write: the gift message and the payment before it are rolled back with it.
    const second = await give(uma, { postId, amount: 2 });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('already_used');
    expect(await balanceOfUser(server, uma)).toBe(8);
    expect(await balanceOfUser(server, tia)).toBe(2);
    expect((await messagesOf(tia, first.body.conversationId)).filter((m) => m.messageType === 'gift')).toHaveLength(1);
    await expectLedgerSound(server.deps.db);
  });

  it('answers a repeat of its Idempotency-Key with the first answer, and refuses the key for another give', async () => {
    const [vic, wes] = await buildUsers(server, 2, 'vic');
    await depositFor(server, wes, 10);
    const postId = await receiveLink(vic, { type: 'currency', amount: 5, quantity: 2 });
    const first = await give(wes, { postId, amount: 3 }, 'wes-give-1');
    const again = await give(wes, { postId, amount: 3 }, 'wes-give-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const other = await give(wes, { postId, amount: 4 }, 'wes-give-1');
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    expect(await balanceOfUser(server, wes)).toBe(7);
  });

  it('refuses a link that has closed with a 410, and moves nothing', async () => {
    const [xan, yul, zed] = await buildUsers(server, 3, 'xan');
    await depositFor(server, yul, 10);
    await depositFor(server, zed, 10);
    const postId = await receiveLink(xan, { type: 'currency', amount: 5 });
    // The whole goal given: the link closes.
    expect((await give(zed, { postId, amount: 5 })).status).toBe(201);
    const late = await give(yul, { postId, amount: 1 });
    expect(late.status).toBe(410);
    expect(await balanceOfUser(server, yul)).toBe(10);
    expect(await balanceOfUser(server, xan)).toBe(5);
  });
});
