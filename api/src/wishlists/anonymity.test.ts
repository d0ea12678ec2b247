import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { buildUsers, depositFor, everythingVisibleTo, startTestServer, type TestServer } from '../testing/server.js';
import type { WishlistResponse } from '../../contract/wishlists.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('anonymity of wishlist buyers', () => {
  it('never shows the owner the id, username or email of who bought their item', async () => {
    const [owner, buyer] = await buildUsers(server, 2, 'wanon');
    await depositFor(server, buyer, 1000);
    const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, { where: {}, order: { position: 'ASC' } });
    const saved = await server.request<WishlistResponse>('PUT', '/wishlists/update', {
      token: owner.token,
      body: { username: owner.user.username, items: [{ itemId: product.itemId }] },
    });
    const item = saved.body.userWishlist.items[0];
    const bought = await server.request('POST', '/wishlists/purchase', {
      token: buyer.token,
      body: { wishlistUsername: owner.user.username, purchaserUserId: buyer.user._id, itemId: item._id, lastMessage: 'hi' },
    });
    expect(bought.status).toBe(200);

    const text = await everythingVisibleTo(server, owner, [
      ['GET', `/wishlists/${owner.user.username}`],
      ['GET', `/wishlists/get-transaction?itemId=${item._id}&wishlistUsername=${owner.user.username}`],
      ['POST', '/api/auth/login', { email: owner.user.email, password: owner.password }],
    ]);
    // The purchase did arrive where the owner can see it...
    expect(text).toContain(`You received a gift from your wishlist: ${product.title}!`);
    expect(text).toContain('Anonymous');
    expect(text).toContain('"purchased":true');
    // ...and nothing names who bought it.
    for (const secret of [buyer.user._id, buyer.user.username, buyer.user.email]) {
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});
