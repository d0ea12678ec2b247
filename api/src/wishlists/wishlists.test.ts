import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { WishlistItemEntity } from './entity.js';
import { ALREADY_PURCHASED, ITEM_INFO_ERROR, OWN_ITEM, TOO_MANY_ITEMS } from '../../contract/texts.js';
import { type WishlistItemView, type WishlistResponse } from '../../contract/wishlists.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
let productIds: string[];
let calculatedId: string;

beforeAll(async () => {
  server = await startTestServer();
  const products = await server.deps.db.manager.find(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
    take: 10,
  });
  productIds = products.map((p) => p.itemId);
  const calculated = await server.deps.db.manager.findOneByOrFail(CatalogProductEntity, { shippingType: 'CALCULATED' });
  calculatedId = calculated.itemId;
});
afterAll(() => server?.close());

const save = (who: TestUser, items: object[], username = who.user.username) =>
  server.request<WishlistResponse & { message?: string }>('PUT', '/wishlists/update', {
    token: who.token,
    body: { username, items },
  });

const view = async (username: string): Promise<WishlistItemView[]> => {
  const res = await server.request<WishlistResponse>('GET', `/wishlists/${username}`);
  expect(res.status).toBe(200);
  return res.body.userWishlist.items;
};

const buy = (who: TestUser, owner: TestUser, itemId: string, headers: Record<string, string> = {}) =>
  server.request<{ conversationId?: string; message?: string }>('POST', '/wishlists/purchase', {
    token: who.token,
    headers,
    body: { wishlistUsername: owner.user.username, purchaserUserId: who.user._id, itemId, lastMessage: 'For you!' },
  });

async function expectInvariants() {
  await expectLedgerSound(server.deps.db);
}

async function catalogueTotal(itemId: string): Promise<{ price: number; shipping: number }> {
  const p = await server.deps.db.manager.findOneByOrFail(CatalogProductEntity, { itemId });
  return { price: p.priceCents / 100, shipping: p.shippingCents / 100 };
}

describe('editing a wishlist', () => {
  it('saves items from the catalogue, ignoring forged prices, and shows them to anyone', async () => {
    const [owner] = await buildUsers(server, 1, 'wown');
    expect(await view(owner.user.username)).toEqual([]);
    const forged = { itemId: productIds[0], price: 0.01, shippingPrice: 0, title: 'Forged', purchased: true, name: 'x' };
    const res = await save(owner, [forged, { itemId: productIds[1] }, { itemId: productIds[2] }]);
    expect(res.status).toBe(200);
    expect(res.body.userWishlist.username).toBe(owner.user.username);
    const items = await view(owner.user.username);
    expect(items.map((i) => i.itemId)).toEqual(productIds.slice(0, 3));
    const { price, shipping } = await catalogueTotal(productIds[0]);
    const catalogue = await server.deps.db.manager.findOneByOrFail(CatalogProductEntity, { itemId: productIds[0] });
    expect(items[0]).toMatchObject({
      itemId: productIds[0],
      name: catalogue.title,
      title: catalogue.title,
      price,
      shippingPrice: shipping,
      shippingCost: shipping,
      total: Math.round((price + shipping) * 100) / 100,
      imageUrl: catalogue.imageUrl,
      purchased: false,
    });
    expect(items[0].allImages[0]).toBe(catalogue.imageUrl);
    expect(items[0].purchasedAt).toBeUndefined();
    expect(Object.keys(items[0])).not.toContain('purchaserId');

    // Saving the list it got back keeps the items' ids.
    const again = await save(owner, items);
    expect(again.body.userWishlist.items.map((i) => i._id)).toEqual(items.map((i) => i._id));

    // Login hands the items' images to the client for its cache.
    const login = await server.request<{ wishlistItems: { _id: string; imageUrl: string }[] }>('POST', '/api/auth/login', {
      body: { email: owner.user.email, password: owner.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.wishlistItems).toEqual(items.map((i) => ({ _id: i._id, imageUrl: i.imageUrl })));
  });

  it('refuses an 8th item and changes nothing', async () => {
    const [owner] = await buildUsers(server, 1, 'wmax');
    const seven = productIds.slice(0, 7).map((itemId) => ({ itemId }));
    expect((await save(owner, seven)).status).toBe(200);
    const before = await view(owner.user.username);
    expect(before).toHaveLength(7);
    const eight = await save(owner, [...seven, { itemId: productIds[7] }]);
    expect(eight.status).toBe(400);
    expect(eight.body.message).toBe(TOO_MANY_ITEMS);
    expect(await view(owner.user.username)).toEqual(before);
  });

  it('refuses anyone but the owner (403) and a visitor (401), changing nothing', async () => {
    const [owner, other] = await buildUsers(server, 2, 'wnon');
    await save(owner, [{ itemId: productIds[0] }]);
    const before = await view(owner.user.username);
    const res = await save(other, [{ itemId: productIds[3] }, { itemId: productIds[4] }], owner.user.username);
    expect(res.status).toBe(403);
    const anonymous = await server.request('PUT', '/wishlists/update', {
      body: { username: owner.user.username, items: [] },
    });
    expect(anonymous.status).toBe(401);
    expect(await view(owner.user.username)).toEqual(before);
    expect(await view(other.user.username)).toEqual([]);
  });

  it("refuses an item the catalogue cannot price, with the spec's message", async () => {
    const [owner] = await buildUsers(server, 1, 'wbad');
    await save(owner, [{ itemId: productIds[0] }]);
    const before = await view(owner.user.username);
    const res = await save(owner, [{ itemId: productIds[1] }, { itemId: 'v1|NOSUCHITEM|0' }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ITEM_INFO_ERROR);
    expect(await view(owner.user.username)).toEqual(before);
    const malformed = await save(owner, [{ price: 5 }]);
    expect(malformed.status).toBe(400);
  });

  it('keeps purchased items, in place and unchanged, whatever an edit sends', async () => {
    const [owner, friend] = await buildUsers(server, 2, 'wkeep');
    await depositFor(server, friend, 2000);
    const saved = (
      await save(
        owner,
        productIds.slice(0, 3).map((itemId) => ({ itemId })),
      )
    ).body.userWishlist.items;
    expect((await buy(friend, owner, saved[1]._id)).status).toBe(200);

    // Leaving it out, or sending it altered, does not remove or change it.
    const edit = await save(owner, [
      { itemId: productIds[4] },
      { _id: saved[1]._id, itemId: productIds[5], price: 1 },
      { _id: saved[0]._id, itemId: productIds[0] },
    ]);
    expect(edit.status).toBe(200);
    const after = await view(owner.user.username);
    expect(after.map((i) => i.itemId)).toEqual([productIds[4], productIds[1], productIds[0]]);
    expect(after[1]).toMatchObject({ _id: saved[1]._id, purchased: true, price: saved[1].price });
    expect(after[2]._id).toBe(saved[0]._id);

    const removeAll = await save(owner, []);
    expect(removeAll.status).toBe(200);
    expect((await view(owner.user.username)).map((i) => i._id)).toEqual([saved[1]._id]);

    // The purchased item counts toward the seven.
    const seven = productIds.slice(2, 9).map((itemId) => ({ itemId }));
    expect((await save(owner, seven)).body.message).toBe(TOO_MANY_ITEMS);
    expect((await save(owner, seven.slice(0, 6))).status).toBe(200);
    expect(await view(owner.user.username)).toHaveLength(7);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await server.request('GET', '/wishlists/nobody-at-all');
    expect(res.status).toBe(404);
  });
});

describe('buying from a wishlist', () => {
  it('charges price plus shipping, marks the item purchased, opens the conversation and tells the owner', async () => {
    const [owner, friend, stranger] = await buildUsers(server, 3, 'wbuy');
    await depositFor(server, friend, 1000);
    const [item] = (await save(owner, [{ itemId: productIds[2] }])).body.userWishlist.items;
    const res = await buy(friend, owner, item._id);
    expect(res.status).toBe(200);
    expect(typeof res.body.conversationId).toBe('string');
    expect(await balanceOfUser(server, friend)).toBeCloseTo(1000 - item.total, 2);
    expect(await balanceOfUser(server, owner)).toBe(0);

    const [bought] = await view(owner.user.username);
    expect(bought.purchased).toBe(true);
    expect(Date.parse(bought.purchasedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const notes = await server.request<{ type: string; linkOrWishlist: string; ebItemTitle: string; conversationId: string }[]>(
      'GET',
      `/api/notifications/${owner.user._id}`,
      { token: owner.token },
    );
    expect(notes.body[0]).toMatchObject({
      type: 'wishlist',
      linkOrWishlist: 'wishlist',
      ebItemTitle: item.title,
      conversationId: res.body.conversationId,
    });
    const messages = await server.request<{ messages: { messageType: string; giftDetails: unknown }[] }>(
      'GET',
      `/messages/${res.body.conversationId}?page=1`,
      { token: owner.token },
    );
    expect(messages.body.messages.at(-1)).toMatchObject({
      messageType: 'gift',
      giftDetails: { title: item.title, giftType: 'item', img: item.imageUrl },
    });

    // The purchase's date: for the owner and the buyer, by _id or catalogue itemId; not for others.
    const tx = (who: TestUser, itemId: string) =>
      server.request<{ wishlistTransactionData: { createdAt: string } }>(
        'GET',
        `/wishlists/get-transaction?itemId=${encodeURIComponent(itemId)}&wishlistUsername=${owner.user.username}`,
        { token: who.token },
      );
    expect((await tx(owner, item._id)).body.wishlistTransactionData.createdAt).toBe(bought.purchasedAt);
    expect((await tx(friend, item.itemId)).body.wishlistTransactionData.createdAt).toBe(bought.purchasedAt);
    expect((await tx(stranger, item._id)).status).toBe(403);
    expect(
      (await server.request('GET', `/wishlists/get-transaction?itemId=${item._id}&wishlistUsername=${owner.user.username}`)).status,
    ).toBe(401);

    // Bought once: a second purchase is refused and costs nothing.
    const again = await buy(stranger, owner, item._id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ALREADY_PURCHASED);
    await expectInvariants();
  });

  it("charges the catalogue's shipping estimate for 'Calculated' shipping", async () => {
    const [owner, friend] = await buildUsers(server, 2, 'wcalc');
    await depositFor(server, friend, 1000);
    const [item] = (await save(owner, [{ itemId: calculatedId }])).body.userWishlist.items;
    const { price, shipping } = await catalogueTotal(calculatedId);
    expect(item).toMatchObject({ shippingPrice: 'Calculated', price, shippingCost: shipping });
    expect((await buy(friend, owner, item.itemId)).status).toBe(200);
    expect(await balanceOfUser(server, friend)).toBeCloseTo(1000 - price - shipping, 2);
  });

  it('refuses the owner, another purchaser id, and a short balance, moving nothing', async () => {
    const [owner, friend, other] = await buildUsers(server, 3, 'wref');
    await depositFor(server, owner, 1000);
    await depositFor(server, friend, 1);
    const [item] = (await save(owner, [{ itemId: productIds[0] }])).body.userWishlist.items;

    const own = await buy(owner, owner, item._id);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe(OWN_ITEM);

    const impersonating = await server.request('POST', '/wishlists/purchase', {
      token: friend.token,
      body: { wishlistUsername: owner.user.username, purchaserUserId: other.user._id, itemId: item._id },
    });
    expect(impersonating.status).toBe(403);

    const short = await buy(friend, owner, item._id);
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Add money to your account balance.');
    expect(await balanceOfUser(server, friend)).toBe(1);
    expect(await balanceOfUser(server, owner)).toBe(1000);
    expect((await view(owner.user.username))[0].purchased).toBe(false);
    const notes = await server.request<unknown[]>('GET', `/api/notifications/${owner.user._id}`, { token: owner.token });
    expect(notes.body).toEqual([]);

    expect((await buy(friend, owner, 'no-such-item')).status).toBe(404);
    expect(
      (await server.request('POST', '/wishlists/purchase', { body: { wishlistUsername: owner.user.username, itemId: item._id } })).status,
    ).toBe(401);
    await expectInvariants();
  });

  it('replays a repeated Idempotency-Key without charging twice', async () => {
    const [owner, friend] = await buildUsers(server, 2, 'widem');
    await depositFor(server, friend, 1000);
    const [item] = (await save(owner, [{ itemId: productIds[3] }])).body.userWishlist.items;
    const headers = { 'Idempotency-Key': 'wishlist-buy-1' };
    const first = await buy(friend, owner, item._id, headers);
    const second = await buy(friend, owner, item._id, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.conversationId).toBe(first.body.conversationId);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOfUser(server, friend)).toBeCloseTo(1000 - item.total, 2);
  });

  it('lets exactly one of 10 racing buyers pay; the others get 409 and keep their money', async () => {
    const [owner] = await buildUsers(server, 1, 'wrace');
    const buyers = await buildUsers(server, 10, 'wrb');
    for (const b of buyers) await depositFor(server, b, 500);
    const [item] = (await save(owner, [{ itemId: productIds[1] }])).body.userWishlist.items;

    const results = await Promise.all(buyers.map((b) => buy(b, owner, item._id)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toBe(ALREADY_PURCHASED);

    const balances = await Promise.all(buyers.map((b) => balanceOfUser(server, b)));
    expect(balances.filter((b) => b === 500)).toHaveLength(9);
    expect(balances.filter((b) => b !== 500).map((b) => Math.round(b * 100))).toEqual([Math.round((500 - item.total) * 100)]);
    const winner = buyers[results.findIndex((r) => r.status === 200)];
    const row = await server.deps.db.manager.findOneByOrFail(WishlistItemEntity, { id: item._id });
    expect(row).toMatchObject({ purchased: true, purchaserId: winner.user._id });
    await expectInvariants();
  });
});
