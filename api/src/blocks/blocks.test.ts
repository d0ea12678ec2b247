import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import type { ConversationView, MessageView } from '../conversations/presenter.js';
import { connectClient, giveGift, settle, type TestClient } from '../realtime/testing.js';
import { buildUsers, depositFor, everythingVisibleTo, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { WishlistResponse } from '../../contract/wishlists.js';
import { ITEM_UNAVAILABLE, LINK_GONE, MESSAGE_UNDELIVERABLE } from '../../contract/texts.js';
import { canReach } from '../conversations/policy.js';
import { canBlockFrom } from './policy.js';
import type { BlockResponse, BlockView } from '../../contract/blocks.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

const as = (who: TestUser, body?: unknown) => ({ token: who.token, body });
const secretsOf = (who: TestUser) => [who.user._id, who.user.username, who.user.email].map((s) => s.toLowerCase());

const sendHttp = (who: TestUser, conversationId: string, text: string) =>
  server.request<{ error?: string; message?: string }>('POST', '/messages/send', as(who, { conversationId, text }));
const giveTo = (who: TestUser, postId: string, amount: number) =>
  server.request<{ error?: string; message?: string }>('POST', '/statuses/api/gives', as(who, { postId, amount }));
const accept = (who: TestUser, creator: TestUser) =>
  server.request<{ error?: string; message?: string }>('PUT', '/api/accept-link', as(who, { linkCreatorUsername: creator.user.username }));
const createLink = async (who: TestUser, details: Record<string, unknown>) => {
  const res = await server.request<{ id: string }>('POST', '/links/create', as(who, { details }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
};
const conversationsOf = async (who: TestUser) =>
  (await server.request<ConversationView[]>('GET', `/conversations/${who.user._id}`, as(who))).body;
const messagesOf = async (who: TestUser, conversationId: string) =>
  (await server.request<{ messages: MessageView[] }>('GET', `/messages/${conversationId}?page=1`, as(who))).body.messages;
const notificationsOf = async (who: TestUser) =>
  (await server.request<{ conversationId: string | null }[]>('GET', `/api/notifications/${who.user._id}`, as(who))).body;

async function wishlistItem(owner: TestUser): Promise<string> {
  const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, { where: {}, order: { position: 'ASC' } });
  const saved = await server.request<WishlistResponse>(
    'PUT',
    '/wishlists/update',
    as(owner, { username: owner.user.username, items: [{ itemId: product.itemId }] }),
  );
  expect(saved.status).toBe(200);
  return saved.body.userWishlist.items[0]._id;
}
const purchase = (who: TestUser, owner: TestUser, itemId: string) =>
  server.request<{ error?: string; message?: string; conversationId?: string }>(
    'POST',
    '/wishlists/purchase',
    as(who, { wishlistUsername: owner.user.username, purchaserUserId: who.user._id, itemId, lastMessage: 'hi' }),
  );

describe('blocking an anonymous giver', () => {
  it('refuses every way the blocked giver can reach the blocker, tells neither who, and unblocking restores it', async () => {
    const [alice, bob, carol] = await buildUsers(server, 3, 'blk');
    await depositFor(server, bob, 200);
    await depositFor(server, carol, 200);
    await depositFor(server, alice, 50);
    // Bob gives to Alice's receive link: an anonymous thread, Alice does not know it is Bob.
    const { conversationId } = await giveGift(server, bob, alice, 5);
    const itemId = await wishlistItem(alice);
    // Alice opens the thread first (read receipts are not what this test is about).
    const aliceMessages = (await messagesOf(alice, conversationId)).length;
    const bobBefore = JSON.stringify(await conversationsOf(bob));
    const bobMessagesBefore = JSON.stringify(await messagesOf(bob, conversationId));

    // Only a member of the conversation can block from it; an unknown one is not found.
    expect((await server.request('POST', '/api/blocks', as(carol, { conversationId }))).status).toBe(403);
    expect((await server.request('POST', '/api/blocks', as(carol, { conversationId: crypto.randomUUID() }))).status).toBe(404);
    expect((await server.request('POST', '/api/blocks', { body: { conversationId } })).status).toBe(401);

    const blocked = await server.request<BlockResponse>('POST', '/api/blocks', as(alice, { conversationId }));
    expect(blocked.status).toBe(201);
    expect(blocked.body.block).toMatchObject({ anonymous: true, displayName: null, username: null, conversationId });
    const again = await server.request<BlockResponse>('POST', '/api/blocks', as(alice, { conversationId }));
    expect(again.status).toBe(200);
    expect(again.body.block._id).toBe(blocked.body.block._id);

    const aliceSocket = await connectClient(server, { token: alice.token });
    const bobSocket = await connectClient(server, { token: bob.token });
    open.push(aliceSocket, bobSocket);
    const aliceNotifications = (await notificationsOf(alice)).length;

    // A message over HTTP and over the socket: the neutral answer, the same both ways.
    const http = await sendHttp(bob, conversationId, 'are you there?');
    expect(http.status).toBe(403);
    expect(http.body.message).toBe(MESSAGE_UNDELIVERABLE);
    const socketAnswer = await bobSocket.socket
      .timeout(5000)
      .emitWithAck('sendMessage', { conversationId, text: 'hello?' } as { conversationId: string; text: string });
    expect(socketAnswer).toMatchObject({ ok: false, error: { error: 'forbidden', message: MESSAGE_UNDELIVERABLE } });

    // Giving to Alice's receive link: the answer a closed link gets. Carol's gift still goes through.
    const receiveLink = await createLink(alice, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    const refusedGive = await giveTo(bob, receiveLink, 5);
    expect(refusedGive.status).toBe(410);
    expect(refusedGive.body.message).toBe(LINK_GONE);
    expect((await giveTo(carol, receiveLink, 5)).status).toBe(201);
    const closedAnswer = await giveTo(carol, receiveLink, 5);
    expect({ status: closedAnswer.status, body: closedAnswer.body }).toEqual({ status: refusedGive.status, body: refusedGive.body });

    await createLink(alice, { giveorreceive: 'give', type: 'currency', amount: 2, quantity: 2 });
    expect((await accept(carol, alice)).status).toBe(200);

    // Buying from Alice's wishlist: refused, nothing bought, nothing paid.
    const refusedPurchase = await purchase(bob, alice, itemId);
    expect(refusedPurchase.status).toBe(403);
    expect(refusedPurchase.body.message).toBe(ITEM_UNAVAILABLE);
    const wishlist = await server.request<WishlistResponse>('GET', `/wishlists/${alice.user.username}`, as(alice));
    expect(wishlist.body.userWishlist.items[0]).toMatchObject({ purchased: false });

    // Nothing of Bob reached Alice: no message, no socket event of that thread, only Carol's notification.
    await settle(300);
    expect((await messagesOf(alice, conversationId)).length).toBe(aliceMessages);
    expect(aliceSocket.events.filter((e) => JSON.stringify(e.payload).includes(conversationId))).toEqual([]);
    const notifications = await notificationsOf(alice);
    expect(notifications.length).toBe(aliceNotifications + 1);
    expect(notifications.filter((n) => n.conversationId === conversationId).length).toBe(1); // the first gift, from before the block

    // Everything Alice can fetch, her blocks included, never names Bob.
    const aliceText = (
      await everythingVisibleTo(server, alice, [
        ['GET', '/api/blocks'],
        ['POST', '/api/blocks', { conversationId }],
      ])
    ).toLowerCase();
    for (const secret of secretsOf(bob)) expect(aliceText).not.toContain(secret);
    const list = await server.request<BlockView[]>('GET', '/api/blocks', as(alice));
    expect(list.body).toEqual([blocked.body.block]);

    // Bob's side never says he was blocked: his anonymous thread and its messages are as they were.
    expect(JSON.stringify(await conversationsOf(bob))).toBe(bobBefore);
    expect(JSON.stringify(await messagesOf(bob, conversationId))).toBe(bobMessagesBefore);
    const bobText = (await everythingVisibleTo(server, bob, [])).toLowerCase();
    expect(bobText).not.toContain('block');
    expect((await server.request('GET', '/api/blocks', as(bob))).body).toEqual([]);
    expect(JSON.stringify([http.body, socketAnswer, refusedGive.body, refusedPurchase.body]).toLowerCase()).not.toContain('block');

    // Accepting Alice's give link is Bob by name, an identity Alice did not block: it goes through, as Carol's did.
    expect((await accept(bob, alice)).status).toBe(200);

    // Only the blocker can unblock; then every way works again.
    expect((await server.request('DELETE', `/api/blocks/${blocked.body.block._id}`, as(bob))).status).toBe(404);
    expect((await server.request('DELETE', `/api/blocks/${blocked.body.block._id}`, as(carol))).status).toBe(404);
    expect((await server.request('DELETE', `/api/blocks/${blocked.body.block._id}`, as(alice))).status).toBe(204);
    expect((await server.request<BlockView[]>('GET', '/api/blocks', as(alice))).body).toEqual([]);
    expect((await sendHttp(bob, conversationId, 'hi again')).status).toBe(201);
    expect((await purchase(bob, alice, itemId)).status).toBe(200);
    expect((await messagesOf(alice, conversationId)).some((m) => m.text === 'hi again')).toBe(true);
  });

  it('lets the giver block too, naming only whom they know, and either member can block the other', async () => {
    const [dana, eli] = await buildUsers(server, 2, 'blg');
    const { conversationId } = await giveGift(server, eli, dana, 5);
    // The anonymous giver blocks the recipient, whom they know by name.
    const byGiver = await server.request<BlockResponse>('POST', '/api/blocks', as(eli, { conversationId }));
    expect(byGiver.status).toBe(201);
    expect(byGiver.body.block).toMatchObject({ anonymous: false, username: dana.user.username, displayName: dana.user.displayName });
    // Dana, blocked by Eli, cannot message Eli; Eli, the blocker, still can (a block never limits its blocker).
    expect((await sendHttp(dana, conversationId, 'hey')).body.message).toBe(MESSAGE_UNDELIVERABLE);
    expect((await sendHttp(eli, conversationId, 'still here')).status).toBe(201);
    // Dana blocks back: her entry is anonymous.
    const byRecipient = await server.request<BlockResponse>('POST', '/api/blocks', as(dana, { conversationId }));
    expect(byRecipient.body.block).toMatchObject({ anonymous: true, username: null, displayName: null });
    expect((await sendHttp(eli, conversationId, 'now?')).status).toBe(403);
  });
});

describe('a block and the two threads of the same two people', () => {
  it('stops only the identity of the thread it was made from, and each block stays an entry of its own', async () => {
    const [fay, gus] = await buildUsers(server, 2, 'blt');
    await depositFor(server, gus, 50);
    await depositFor(server, fay, 50);
    const anonymous = (await giveGift(server, gus, fay, 5)).conversationId;
    const first = await server.request<BlockResponse>('POST', '/api/blocks', as(fay, { conversationId: anonymous }));
    expect(first.status).toBe(201);

    // Gus's give link: Fay accepts it; that opens their named thread.
    await createLink(gus, { giveorreceive: 'give', type: 'currency', amount: 2, quantity: 1 });
    const accepted = await server.request<{ conversationId: string }>(
      'PUT',
      '/api/accept-link',
      as(fay, { linkCreatorUsername: gus.user.username }),
    );
    expect(accepted.status).toBe(200);
    const named = accepted.body.conversationId;
    expect(named).not.toBe(anonymous);
    // The block is of the anonymous giver: Gus by name still reaches Fay, and the persona still does not.
    expect((await sendHttp(gus, named, 'hi')).status).toBe(201);
    expect((await sendHttp(gus, anonymous, 'hi')).body.message).toBe(MESSAGE_UNDELIVERABLE);

    // Blocking from the named thread is an entry of its own, never merged with (or refused because of) the anonymous one.
    const second = await server.request<BlockResponse>('POST', '/api/blocks', as(fay, { conversationId: named }));
    expect(second.status).toBe(201);
    expect(second.body.block._id).not.toBe(first.body.block._id);
    expect(second.body.block).toMatchObject({ anonymous: false, username: gus.user.username });
    expect((await sendHttp(gus, named, 'hi')).body.message).toBe(MESSAGE_UNDELIVERABLE);
    const list = (await server.request<BlockView[]>('GET', '/api/blocks', as(fay))).body;
    expect(list.map((b) => b._id).sort()).toEqual([first.body.block._id, second.body.block._id].sort());
    const anonymousEntry = JSON.stringify(list.find((b) => b.anonymous)).toLowerCase();
    for (const secret of secretsOf(gus)) expect(anonymousEntry).not.toContain(secret);
    expect(anonymousEntry).not.toContain(named);

    // Each entry lifts only its own thread's block; a block by name never stops an anonymous gift.
    expect((await server.request('DELETE', `/api/blocks/${second.body.block._id}`, as(fay))).status).toBe(204);
    expect((await sendHttp(gus, named, 'hi')).status).toBe(201);
    expect((await sendHttp(gus, anonymous, 'hi')).status).toBe(403);
    expect((await server.request('POST', '/api/blocks', as(fay, { conversationId: named }))).status).toBe(201);
    const receive = await createLink(fay, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    expect((await server.request('DELETE', `/api/blocks/${first.body.block._id}`, as(fay))).status).toBe(204);
    expect((await giveTo(gus, receive, 5)).status).toBe(201);
    expect((await sendHttp(gus, anonymous, 'hi')).status).toBe(201);
    expect((await sendHttp(gus, named, 'hi')).status).toBe(403);
  });

  it('made by the anonymous giver, never stops the recipient writing to the giver by name, nor the other way round', async () => {
    const [rae, gil, sam] = await buildUsers(server, 3, 'blr');
    await depositFor(server, gil, 50);
    await depositFor(server, sam, 50);
    const anonymous = (await giveGift(server, gil, rae, 5)).conversationId;
    const namedWith = async (giver: TestUser) => {
      await createLink(giver, { giveorreceive: 'give', type: 'currency', amount: 1, quantity: 1 });
      return (
        await server.request<{ conversationId: string }>('PUT', '/api/accept-link', as(rae, { linkCreatorUsername: giver.user.username }))
      ).body.conversationId;
    };
    const [withGil, withSam] = [await namedWith(gil), await namedWith(sam)];
    // The giver blocks the recipient from the anonymous thread: the recipient's messages by name to both suspects go through alike.
    expect((await server.request('POST', '/api/blocks', as(gil, { conversationId: anonymous }))).status).toBe(201);
    expect((await sendHttp(rae, anonymous, 'hello?')).body.message).toBe(MESSAGE_UNDELIVERABLE);
    expect((await sendHttp(rae, withGil, 'hi')).status).toBe(201);
    expect((await sendHttp(rae, withSam, 'hi')).status).toBe(201);
    // The recipient blocks the anonymous thread: the giver by name still reaches them.
    expect((await server.request('POST', '/api/blocks', as(rae, { conversationId: anonymous }))).status).toBe(201);
    expect((await sendHttp(gil, withGil, 'hi')).status).toBe(201);
    expect((await sendHttp(gil, anonymous, 'hi')).body.message).toBe(MESSAGE_UNDELIVERABLE);
  });
});

describe('block policy', () => {
  const a = 'a';
  const b = 'b';
  const c = 'c';
  it.each([
    // actor, target, blocks, expected
    [b, a, [], true],
    [b, a, [{ blockerId: a, blockedId: b }], false],
    [a, b, [{ blockerId: a, blockedId: b }], true], // the blocker is never limited
    [c, a, [{ blockerId: a, blockedId: b }], true],
    [b, c, [{ blockerId: a, blockedId: b }], true],
    [a, a, [{ blockerId: a, blockedId: a }], true],
  ])('canReach(%s, %s, %j) is %s', (actor, target, blocks, expected) => {
    expect(canReach(actor, target, blocks)).toBe(expected);
  });

  it.each([
    [a, { initiatorId: a, responderId: b }, true],
    [b, { initiatorId: a, responderId: b }, true],
    [c, { initiatorId: a, responderId: b }, false],
    [a, { initiatorId: a, responderId: a }, false],
  ])('canBlockFrom(%s, %j) is %s', (viewer, conversation, expected) => {
    expect(canBlockFrom(viewer, conversation)).toBe(expected);
  });
});
