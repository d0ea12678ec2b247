import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { buildUsers, depositFor, everythingVisibleTo, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { ARCHIVE_NOT_PURCHASED, ITEM_NOT_FOUND, TOO_MANY_ITEMS } from '../../contract/texts.js';
import { WISHLIST_MAX } from '../../contract/limits.js';
import { type WishlistResponse } from '../../contract/wishlists.js';

let server: TestServer;
let productIds: string[];

beforeAll(async () => {
  server = await startTestServer();
  const products = await server.deps.db.manager.find(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
    take: 10,
  });
  productIds = products.map((p) => p.itemId);
});
afterAll(() => server?.close());

type Answer = WishlistResponse & { message?: string };

const save = (who: TestUser, items: object[]) =>
  server.request<Answer>('PUT', '/wishlists/update', { token: who.token, body: { username: who.user.username, items } });

const archive = (who: TestUser, itemId: string, username = who.user.username) =>
  server.request<Answer>('POST', '/wishlists/archive', { token: who.token, body: { username, itemId } });

const viewAs = async (username: string, who?: TestUser) =>
  (await server.request<WishlistResponse>('GET', `/wishlists/${username}`, { token: who?.token })).body.userWishlist;

const buy = (who: TestUser, owner: TestUser, itemId: string) =>
  server.request('POST', '/wishlists/purchase', {
    token: who.token,
    body: { wishlistUsername: owner.user.username, purchaserUserId: who.user._id, itemId },
  });

describe("archiving purchased items into 'Received'", () => {
  it('moves a bought item out of the seven, so the owner can add an eighth, and shows Received to the owner only', async () => {
    const [owner, friend, visitor] = await buildUsers(server, 3, 'warc');
    await depositFor(server, friend, 5000);
    const seven = productIds.slice(0, WISHLIST_MAX).map((itemId) => ({ itemId }));
    const saved = (await save(owner, seven)).body.userWishlist.items;
    expect(saved).toHaveLength(WISHLIST_MAX);
    expect((await buy(friend, owner, saved[2]._id)).status).toBe(200);

    // Full: the bought item still counts, an eighth is refused.
    const eight = [...saved.map(({ _id, itemId }) => ({ _id, itemId })), { itemId: productIds[WISHLIST_MAX] }];
    expect((await save(owner, eight)).body.message).toBe(TOO_MANY_ITEMS);

    const archived = await archive(owner, saved[2]._id);
    expect(archived.status).toBe(200);
    expect(archived.body.userWishlist.items).toHaveLength(WISHLIST_MAX - 1);
    expect(archived.body.userWishlist.received).toMatchObject([{ _id: saved[2]._id, purchased: true, title: saved[2].title }]);
    expect(Date.parse(archived.body.userWishlist.received[0].archivedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // Archiving again changes nothing.
    const again = await archive(owner, saved[2]._id);
    expect(again.status).toBe(200);
    expect(again.body.userWishlist.received.map((i) => i._id)).toEqual([saved[2]._id]);

    // A stale client sending the archived item's _id does not bring it back.
    const stale = await save(owner, eight.slice(0, WISHLIST_MAX));
    expect(stale.status).toBe(200);
    expect(stale.body.userWishlist.items.map((i) => i._id)).toEqual(saved.filter((_, i) => i !== 2).map((i) => i._id));
    expect(stale.body.userWishlist.received.map((i) => i._id)).toEqual([saved[2]._id]);

    // Now an eighth product fits.
    const added = await save(
      owner,
      eight.filter((_, i) => i !== 2),
    );
    expect(added.status).toBe(200);
    expect(added.body.userWishlist.items).toHaveLength(WISHLIST_MAX);
    expect(added.body.userWishlist.items.map((i) => i.itemId)).toContain(productIds[WISHLIST_MAX]);
    expect(added.body.userWishlist.items.map((i) => i._id)).not.toContain(saved[2]._id);
    expect(added.body.userWishlist.received.map((i) => i._id)).toEqual([saved[2]._id]);

    // The owner sees Received; a visitor, signed in or not, sees the list only.
    expect((await viewAs(owner.user.username, owner)).received).toHaveLength(1);
    expect((await viewAs(owner.user.username, visitor)).received).toEqual([]);
    expect((await viewAs(owner.user.username)).received).toEqual([]);
    expect((await viewAs(owner.user.username)).items).toHaveLength(WISHLIST_MAX);

    // Nothing the owner can fetch names the buyer, Received included.
    const text = await everythingVisibleTo(server, owner, [['GET', `/wishlists/${owner.user.username}`]]);
    for (const secret of [friend.user._id, friend.user.username, friend.user.email])
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('refuses anyone but the owner, an unpurchased item and an unknown one', async () => {
    const [owner, friend] = await buildUsers(server, 2, 'warcno');
    await depositFor(server, friend, 5000);
    const [open, bought] = (await save(owner, [{ itemId: productIds[0] }, { itemId: productIds[1] }])).body.userWishlist.items;
    expect((await buy(friend, owner, bought._id)).status).toBe(200);

    // The buyer, or anyone, naming the owner's wishlist: 403.
    expect((await archive(friend, bought._id, owner.user.username)).status).toBe(403);
    // Naming their own wishlist, with the owner's item: not theirs, so not found.
    expect((await archive(friend, bought._id)).status).toBe(404);
    expect(
      (await server.request('POST', '/wishlists/archive', { body: { username: owner.user.username, itemId: bought._id } })).status,
    ).toBe(401);

    const unpurchased = await archive(owner, open._id);
    expect(unpurchased.status).toBe(400);
    expect(unpurchased.body.message).toBe(ARCHIVE_NOT_PURCHASED);

    const unknown = await archive(owner, 'no-such-item');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(ITEM_NOT_FOUND);

    const list = await viewAs(owner.user.username, owner);
    expect(list.items.map((i) => i._id)).toEqual([open._id, bought._id]);
    expect(list.received).toEqual([]);
  });
});
