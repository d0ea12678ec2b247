import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import type { NotificationView } from '../notifications/presenter.js';
import {
  balanceOfUser,
  buildUsers,
  depositFor,
  everythingVisibleTo,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/server.js';
import { OrderEntity } from './entity.js';
import { addressAsk, orderDeliveredToGiver, orderMovedToRecipient, orderRefunded } from '../../contract/texts.js';
import { type OrdersResponse, type SaveAddressResponse } from '../../contract/orders.js';
import { orderDeps, sweepOrders } from './service.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { connectClient, type TestClient } from '../realtime/testing.js';

let server: TestServer;
beforeAll(async () => {
  // The production schedule: ship an hour after placing, deliver two days after shipping.
  server = await startTestServer({ ORDER_SHIP_AFTER_MINUTES: '60', ORDER_DELIVER_AFTER_MINUTES: '2880' });
});
afterAll(() => server?.close());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const later = (ms: number) => new Date(Date.now() + ms);
const sweep = (at: Date) => sweepOrders(orderDeps(server.deps), at);

/** An address no gift path may show its giver: every part of it is distinctive. */
const ADDRESS = {
  name: 'Zephyrine Quillfeather',
  line1: '742 Evergreen Terracegate',
  line2: 'Apt Nine-Bravo',
  city: 'Springfieldia',
  region: 'Oregonish',
  postalCode: '97403',
  country: 'US',
};
const ADDRESS_PARTS = ['Zephyrine', 'Quillfeather', 'Evergreen', 'Nine-Bravo', 'Springfieldia', 'Oregonish', '97403'];

async function product(offset = 0) {
  const [p] = await server.deps.db.manager.find(CatalogProductEntity, { order: { position: 'ASC' }, skip: offset, take: 1 });
  return p;
}

async function saveAddress(who: TestUser, body: Record<string, unknown> = ADDRESS) {
  return server.request<SaveAddressResponse>('PUT', '/api/users/me/address', { token: who.token, body });
}

const ordersOf = async (who: TestUser) => (await server.request<OrdersResponse>('GET', '/api/orders', { token: who.token })).body;
const notificationsOf = async (who: TestUser) =>
  (await server.request<NotificationView[]>('GET', `/api/notifications/${who.user._id}`, { token: who.token })).body;

/** A wishlist purchase: anonymous to its recipient. */
async function buyFromWishlist(giver: TestUser, recipient: TestUser, offset = 0) {
  const p = await product(offset);
  const saved = await server.request('PUT', '/wishlists/update', {
    token: recipient.token,
    body: { username: recipient.user.username, items: [{ itemId: p.itemId }] },
  });
  const item = saved.body.userWishlist.items.find((i: { itemId: string }) => i.itemId === p.itemId);
  const bought = await server.request('POST', '/wishlists/purchase', {
    token: giver.token,
    body: { wishlistUsername: recipient.user.username, purchaserUserId: giver.user._id, itemId: item._id, lastMessage: '' },
  });
  expect(bought.status).toBe(200);
  return p;
}

/** A gift to a receive item link: anonymous to its recipient. */
async function giveToReceiveLink(giver: TestUser, recipient: TestUser, offset = 1) {
  const p = await product(offset);
  const link = await server.request('POST', '/links/create', {
    token: recipient.token,
    body: {
      creatorUserId: recipient.user._id,
      creatorUsername: recipient.user.username,
      details: { giveorreceive: 'receive', type: 'item', itemId: p.itemId },
    },
  });
  expect(link.status).toBe(201);
  const given = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: link.body.id } });
  expect(given.status).toBe(201);
  return p;
}

/** Accepting a give item link: a named gift (the recipient knows who made the link). */
async function acceptGiveLink(giver: TestUser, recipient: TestUser, offset = 2) {
  const p = await product(offset);
  const link = await server.request('POST', '/links/create', {
    token: giver.token,
    body: {
      creatorUserId: giver.user._id,
      creatorUsername: giver.user.username,
      details: { giveorreceive: 'give', type: 'item', itemId: p.itemId, amount: 1 },
    },
  });
  expect(link.status).toBe(201);
  const accepted = await server.request('PUT', '/api/accept-link', {
    token: recipient.token,
    body: { linkCreatorUsername: giver.user.username },
  });
  expect(accepted.status).toBe(200);
  return p;
}

async function expectLedgerHolds() {
  await expectLedgerSound(server.deps.db);
}

describe('item orders', () => {
  it('an item gift without an address waits and asks for one; saving the address places it and the sandbox ships and delivers it', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ordw');
    await depositFor(server, giver, 1000);
    const [recipientLive, giverLive] = await Promise.all([recipient, giver].map((u) => connectClient(server, { token: u.token })));
    const p = await buyFromWishlist(giver, recipient);

    const waiting = await ordersOf(recipient);
    expect(waiting.sent).toEqual([]);
    expect(waiting.received).toHaveLength(1);
    expect(waiting.received[0]).toMatchObject({ status: 'awaiting_address', item: { itemId: p.itemId, title: p.title }, shipTo: null });
    expect(Date.parse(waiting.received[0].addressDueAt ?? '') - Date.parse(waiting.received[0].createdAt)).toBe(14 * DAY);
    expect((await ordersOf(giver)).sent[0]).toMatchObject({ status: 'processing', role: 'giver' });

    // The recipient is asked, by Giftlink (no sender, no thread), in a notification of its own.
    const ask = (await notificationsOf(recipient)).find((n) => n.type === 'order');
    expect(ask).toMatchObject({ message: addressAsk(p.title), giveorreceive: 'receive', senderUserId: null, conversationId: null });
    // The giver is asked nothing.
    expect((await notificationsOf(giver)).filter((n) => n.type === 'order')).toEqual([]);

    // Nothing moves while it waits: the marketplace has no address to ship to.
    expect(await sweep(later(3 * DAY))).toEqual({ refunded: 0, shipped: 0, delivered: 0 });

    const saved = await saveAddress(recipient);
    expect(saved.status).toBe(200);
    expect(saved.body.placedOrders).toBe(1);
    const placed = (await ordersOf(recipient)).received[0];
    expect(placed).toMatchObject({ status: 'placed', addressDueAt: null, shipTo: { city: ADDRESS.city, country: 'US' } });

    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    expect((await sweep(at(30 * MINUTE))).shipped).toBe(0);
    expect((await sweep(at(61 * MINUTE))).shipped).toBe(1);
    expect((await ordersOf(giver)).sent[0].status).toBe('shipped');
    // Delivered two days (ORDER_DELIVER_AFTER_MINUTES) after it shipped, not before.
    expect((await sweep(at(60 * MINUTE + 2 * DAY))).delivered).toBe(0);
    expect((await sweep(at(61 * MINUTE + 2 * DAY))).delivered).toBe(1);
    const delivered = (await ordersOf(recipient)).received[0];
    expect(delivered.status).toBe('delivered');
    expect(delivered.deliveredAt).not.toBeNull();
    expect((await ordersOf(giver)).sent[0].status).toBe('delivered');

    // Told as it moves, by Giftlink and naming the item only; a second sweep tells nobody again.
    await Promise.all([sweep(at(62 * MINUTE + 2 * DAY)), sweep(at(62 * MINUTE + 2 * DAY))]);
    const told = (who: TestUser) =>
      notificationsOf(who).then((all) => all.filter((n) => n.type === 'order' && n.message !== addressAsk(p.title)));
    const recipientTold = await told(recipient);
    expect(recipientTold.map((n) => n.message).sort()).toEqual(
      [orderMovedToRecipient(p.title, 'shipped'), orderMovedToRecipient(p.title, 'delivered')].sort(),
    );
    expect(JSON.stringify(recipientTold)).not.toContain(giver.user.username);
    expect(JSON.stringify(recipientTold)).not.toContain(giver.user._id);
    for (const n of recipientTold) expect(n).toMatchObject({ senderUserId: null, conversationId: null, giveorreceive: 'receive' });
    expect((await told(giver)).map((n) => n.message)).toEqual([orderDeliveredToGiver(p.title)]);
    // Live, each with the alert kind the hidden tab's notice is worded by (alert-texts.ts); the gift's none (its message tells).
    const kinds = (c: TestClient) => c.events.filter((e) => e.event === 'getNotification').map((e) => e.rest[0]);
    await expect.poll(() => kinds(recipientLive).length).toBe(4);
    expect(kinds(recipientLive)).toEqual([null, 'order_address', 'order_shipped', 'order_delivered']);
    expect(kinds(giverLive)).toEqual(['order_delivered']);
    for (const c of [recipientLive, giverLive]) c.close();
    await expectLedgerHolds();
  });

  it('with an address on file, every item gift path places its order at once and asks nothing', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ordp');
    await depositFor(server, giver, 3000);
    expect((await saveAddress(recipient)).body.placedOrders).toBe(0);
    await buyFromWishlist(giver, recipient, 3);
    await giveToReceiveLink(giver, recipient, 4);
    const { received } = await ordersOf(recipient);
    expect(received.map((o) => o.status)).toEqual(['placed', 'placed']);
    // One active link at a time: the recipient's receive link is used up, so the giver's give link is next.
    await acceptGiveLink(giver, recipient, 5);
    expect((await ordersOf(recipient)).received.map((o) => o.status)).toEqual(['placed', 'placed', 'placed']);
    expect((await ordersOf(giver)).sent).toHaveLength(3);
    expect((await notificationsOf(recipient)).filter((n) => n.type === 'order')).toEqual([]);
    await expectLedgerHolds();
  });

  it('14 days without an address gives the money back to the giver exactly once, telling only the giver', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ordr');
    await depositFor(server, giver, 1000);
    const p = await giveToReceiveLink(giver, recipient, 6);
    const [order] = (await ordersOf(giver)).sent;
    const afterGift = await balanceOfUser(server, giver);
    expect(afterGift).toBeCloseTo(1000 - order.amount, 2);

    expect((await sweep(later(13 * DAY))).refunded).toBe(0);
    // Two processes sweeping at once: one refund.
    const [a, b] = await Promise.all([sweep(later(14 * DAY + MINUTE)), sweep(later(14 * DAY + MINUTE))]);
    expect(a.refunded + b.refunded).toBe(1);
    expect((await sweep(later(15 * DAY))).refunded).toBe(0);
    expect(await balanceOfUser(server, giver)).toBe(1000);

    const row = await server.deps.db.manager.findOneByOrFail(OrderEntity, { id: order._id });
    expect(row.status).toBe('refunded');
    expect(row.refundTransferId).not.toBeNull();
    expect((await ordersOf(recipient)).received[0].status).toBe('refunded');

    const told = (await notificationsOf(giver)).filter((n) => n.type === 'order');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ giveorreceive: 'give', senderUserId: null, conversationId: null, amount: order.amount });
    expect(told[0].message).toBe(orderRefunded(p.title, `$${order.amount.toFixed(2)}`));
    // An address that comes too late places nothing.
    expect((await saveAddress(recipient)).body.placedOrders).toBe(0);
    // The recipient heard of no refund.
    expect((await notificationsOf(recipient)).some((n) => /back to your balance/.test(n.message))).toBe(false);
    await expectLedgerHolds();
  });
});

describe('who sees what of an order', () => {
  it("the giver is not told that the recipient has no address: 'processing' with no due date, as an order being placed", async () => {
    const [giver, homeless, housed] = await buildUsers(server, 3, 'ordn');
    await depositFor(server, giver, 3000);
    await saveAddress(housed);
    await buyFromWishlist(giver, homeless, 13);
    await buyFromWishlist(giver, housed, 14);
    const [toHoused, toHomeless] = (await ordersOf(giver)).sent;
    expect(toHomeless).toMatchObject({ role: 'giver', status: 'processing', placedAt: null });
    expect(toHoused).toMatchObject({ role: 'giver', status: 'placed' });
    // The same fields either way, and nothing of the wait in the whole answer.
    expect(Object.keys(toHomeless).sort()).toEqual(Object.keys(toHoused).sort());
    const raw = JSON.stringify(await ordersOf(giver));
    for (const hint of ['awaiting_address', 'addressDueAt', 'address']) expect(raw).not.toContain(hint);
    // The recipient's own view keeps the wait and its due date.
    expect((await ordersOf(homeless)).received[0]).toMatchObject({ status: 'awaiting_address', addressDueAt: expect.any(String) });

    // Once placed, the giver sees it as today; a refund as today too.
    await saveAddress(homeless);
    expect((await ordersOf(giver)).sent.map((o) => o.status)).toEqual(['placed', 'placed']);
    const [other] = await buildUsers(server, 1, 'ordn2');
    await buyFromWishlist(giver, other, 15);
    expect((await ordersOf(giver)).sent[0].status).toBe('processing');
    await sweep(later(14 * DAY + MINUTE));
    expect((await ordersOf(giver)).sent[0].status).toBe('refunded');
  });

  it('the address never appears in anything the giver can fetch', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'orda');
    await depositFor(server, giver, 3000);
    await buyFromWishlist(giver, recipient, 7);
    await saveAddress(recipient);
    await giveToReceiveLink(giver, recipient, 8);
    await acceptGiveLink(giver, recipient, 9);
    await sweep(later(2 * 60 * MINUTE));
    const own = await server.request('GET', '/api/users/me/address', { token: recipient.token });
    expect(own.body.address).toMatchObject(ADDRESS);

    const text = await everythingVisibleTo(server, giver, [
      ['GET', '/api/orders'],
      ['GET', '/api/users/me/address'],
      ['GET', `/api/users?username=${recipient.user.username}`],
      ['GET', `/wishlists/${recipient.user.username}`],
      ['GET', `/links/profile/${recipient.user.username}`],
      ['POST', `/links/${recipient.user.username}`, {}],
    ]);
    expect(text).toContain('"status":"shipped"');
    for (const part of ADDRESS_PARTS) expect(text).not.toContain(part);
    expect(text).not.toContain('shipTo');
  });

  it('the giver never appears in anything the recipient can fetch about the order', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ordg');
    await depositFor(server, giver, 3000);
    await buyFromWishlist(giver, recipient, 10);
    await giveToReceiveLink(giver, recipient, 11);
    const secrets = [giver.user._id, giver.user.username, giver.user.email].map((s) => s.toLowerCase());

    // Anonymous gifts: nothing the recipient can fetch names the giver.
    const text = await everythingVisibleTo(server, recipient, [['GET', '/api/orders']]);
    expect(text).toContain('"status":"awaiting_address"');
    for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret);

    // A named gift (a give link) still leaves the giver out of the order itself.
    await acceptGiveLink(giver, recipient, 12);
    await saveAddress(recipient);
    const orders = await server.request('GET', '/api/orders', { token: recipient.token });
    expect(orders.body.received).toHaveLength(3);
    const body = JSON.stringify(orders.body).toLowerCase();
    for (const secret of secrets) expect(body).not.toContain(secret);
    expect(body).not.toContain('giver');
    // Nor does it point at a thread (the named one would name the giver).
    const threads = (await server.request<{ _id: string }[]>('GET', `/conversations/${recipient.user._id}`, { token: recipient.token }))
      .body;
    expect(threads.length).toBeGreaterThanOrEqual(2);
    for (const thread of threads) expect(body).not.toContain(thread._id);
  });

  it('an address is its owner’s: the routes need a session and act on the caller only', async () => {
    const [ann] = await buildUsers(server, 1, 'ordo');
    expect((await server.request('GET', '/api/users/me/address')).status).toBe(401);
    expect((await server.request('PUT', '/api/users/me/address', { body: ADDRESS })).status).toBe(401);
    expect((await server.request('GET', '/api/orders')).status).toBe(401);
    expect((await server.request('GET', '/api/users/me/address', { token: ann.token })).body).toEqual({ address: null });
    expect((await server.request('DELETE', '/api/users/me/address', { token: ann.token })).status).toBe(404);
    await saveAddress(ann);
    expect((await server.request('DELETE', '/api/users/me/address', { token: ann.token })).status).toBe(204);
    expect((await server.request('GET', '/api/users/me/address', { token: ann.token })).body).toEqual({ address: null });
  });
});
