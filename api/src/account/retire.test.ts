import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_MESSAGE } from '../../contract/texts.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { balanceOf, SYSTEM_PAYMENTS, SYSTEM_UNCLAIMED, transfer, userAccount } from '../money/ledger.js';
import { refundUnaddressed } from '../orders/service.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, depositFor, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';

let server: TestServer;
let productId: string;
beforeAll(async () => {
  server = await startTestServer();
  const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
  });
  productId = product.itemId;
});
afterAll(() => server?.close());

const as = (who: TestUser, body?: unknown) => ({ token: who.token, body });
const post = (p: string, who: TestUser, body?: unknown) => server.request('POST', p, as(who, body));
const get = <T>(p: string, who: TestUser) => server.request<T>('GET', p, as(who));
const DAY_MS = 24 * 3600 * 1000;

/** Withdraws the whole balance, then deletes the account, as a person leaving would. */
async function leave(who: TestUser): Promise<void> {
  const { balance } = (await get<{ balance: number }>('/api/billing-settings-balance', who)).body;
  if (balance > 0) {
    await readyPayoutsFor(server, who);
    expect((await post('/api/billing-settings-withdrawal', who, { balance })).status).toBe(200);
  }
  const closed = await post('/api/account/delete', who, { password: who.password });
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);
}

/** Everything the recipient can read of one thread: its inbox entry, the thread and its messages. */
async function threadAsSeenBy(who: TestUser, conversationId: string): Promise<unknown> {
  const inbox = (await get<{ _id: string }[]>(`/conversations/${who.user._id}`, who)).body.find((c) => c._id === conversationId);
  const found = (await get(`/conversations/find/${conversationId}`, who)).body;
  const page = (await get<{ messages: unknown[] }>(`/messages/${conversationId}?page=1`, who)).body.messages;
  return { inbox, found, page };
}

async function namedThreadWith(recipient: TestUser, giver: TestUser): Promise<string> {
  expect(
    (await post('/links/create', giver, { details: { giveorreceive: 'give', type: 'currency', amount: 1, quantity: 1 } })).status,
  ).toBe(201);
  const accepted = await server.request<{ conversationId: string }>(
    'PUT',
    '/api/accept-link',
    as(recipient, { linkCreatorUsername: giver.user.username }),
  );
  expect(accepted.status).toBe(200);
  return accepted.body.conversationId;
}

describe('closing the account of an anonymous giver', () => {
  it('erases the named identity and leaves the anonymous thread exactly as it was, replies accepted', async () => {
    const [giver, suspect, recipient] = [await buildUser(server), await buildUser(server), await buildUser(server)];
    await depositFor(server, giver, 10);
    await depositFor(server, suspect, 10);
    const receive = await post('/links/create', recipient, { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
    const gift = await post('/statuses/api/gives', giver, { postId: receive.body.id, amount: 5 });
    expect(gift.status).toBe(201);
    const anonymous: string = gift.body.conversationId;
    expect((await post('/messages/send', giver, { conversationId: anonymous, text: 'Happy birthday!' })).status).toBe(201);
    const named = await namedThreadWith(recipient, giver);
    await namedThreadWith(recipient, suspect);
    expect((await post('/messages/send', giver, { conversationId: named, text: 'Hi, by name' })).status).toBe(201);
    // Read once, so that reading is not the difference.
    await threadAsSeenBy(recipient, anonymous);
    const before = await threadAsSeenBy(recipient, anonymous);

    await leave(giver);

    // The anonymous thread reads on as before: the giver's words, nothing erased, nothing new.
    expect(await threadAsSeenBy(recipient, anonymous)).toEqual(before);
    expect(JSON.stringify(before)).toContain('Happy birthday!');
    // The named identity is erased: its typed message reads as deleted in the named thread.
    const namedPage = (await get<{ messages: { text: string }[] }>(`/messages/${named}?page=1`, recipient)).body.messages;
    expect(namedPage.map((m) => m.text)).toContain(DELETED_MESSAGE);
    expect(namedPage.map((m) => m.text)).not.toContain('Hi, by name');
    // A reply to the retired persona is taken as a reply to anyone who never answers.
    const reply = await post('/messages/send', recipient, { conversationId: anonymous, text: 'Thank you!' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ message: { text: 'Thank you!', mine: true, read: false } });
    await expectLedgerSound(server.deps.db);
  });
});

describe('money owed to a closed account', () => {
  it('an order refunded after its giver left is kept in system:unclaimed, never credited to the closed account', async () => {
    const [giver, other, recipient] = [await buildUser(server), await buildUser(server), await buildUser(server)];
    const saved = await server.request<{ userWishlist: { items: { _id: string }[] } }>(
      'PUT',
      '/wishlists/update',
      as(recipient, { username: recipient.user.username, items: [{ itemId: productId }, { itemId: productId }] }),
    );
    expect(saved.status).toBe(200);
    const [first, second] = saved.body.userWishlist.items.map((i) => i._id);
    const buy = async (who: TestUser, itemId: string) => {
      await depositFor(server, who, 500);
      const bought = await post('/wishlists/purchase', who, {
        wishlistUsername: recipient.user.username,
        purchaserUserId: who.user._id,
        itemId,
        lastMessage: 'hi',
      });
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    };
    // The recipient has no address: both orders wait for one.
    await buy(giver, first);
    await buy(other, second);

    // The giver may leave: refusing would depend on an anonymous gift, which the recipient could see by name.
    await leave(giver);
    const owedBefore = await balanceOf(server.deps.db.manager, SYSTEM_UNCLAIMED);

    const later = new Date(Date.now() + 15 * DAY_MS);
    expect(await refundUnaddressed(server.deps, later)).toBeGreaterThanOrEqual(2);

    const closed = await server.deps.db.manager.findOneByOrFail(UserEntity, { id: giver.user._id });
    expect(closed.balanceCents).toBe(0);
    const orders = (await get<{ received: { status: string; amount: number }[] }>('/api/orders', recipient)).body.received;
    expect(orders).toHaveLength(2);
    // The recipient's side is the same whichever giver left.
    expect(orders[0]).toEqual({ ...orders[1], ...pick(orders[0], ['_id', 'id', 'createdAt', 'updatedAt', 'refundedAt']) });
    expect(await balanceOf(server.deps.db.manager, SYSTEM_UNCLAIMED)).toBe(owedBefore + orders[0].amount * 100);
    expect((await get<{ balance: number }>('/api/billing-settings-balance', other)).body.balance).toBe(500);
    await expectLedgerSound(server.deps.db);
  });

  it('the ledger refuses any credit to a closed account and moves nothing', async () => {
    const leaver = await buildUser(server);
    await leave(leaver);
    await expect(
      server.deps.db.transaction((em) =>
        transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(leaver.user._id), amountCents: 100, kind: 'deposit' }),
      ),
    ).rejects.toMatchObject({ status: 404 });
    // From one person to another (on PostgreSQL a statement of its own).
    const payer = await buildUser(server);
    await depositFor(server, payer, 5);
    await expect(
      server.deps.db.transaction((em) =>
        transfer(em, { from: userAccount(payer.user._id), to: userAccount(leaver.user._id), amountCents: 100, kind: 'give' }),
      ),
    ).rejects.toMatchObject({ status: 404 });
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id: leaver.user._id })).balanceCents).toBe(0);
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id: payer.user._id })).balanceCents).toBe(500);
    await expectLedgerSound(server.deps.db);
  });
});

function pick(o: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
}
