import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../catalog/catalog.js';
import type { SearchProduct } from '../../contract/catalog.js';
import { AppError } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { WishlistItemEntity } from './entity.js';
import { ITEM_INFO_ERROR, SHIPPING_ERROR } from '../../contract/texts.js';
import { updateWishlist } from './service.js';

/** A marketplace answering a few hand-made products, some of them broken as real ones can be. */
function fakeCatalog(products: Record<string, unknown>): Catalog {
  return {
    kind: 'ebay',
    imageOrigins: [],
    search: async () => [],
    getItem: async (itemId) => (products[itemId] as SearchProduct | undefined) ?? null,
  };
}

const base = {
  title: 'Test Kettle',
  price: { value: '20.00', currency: 'USD' },
  shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '0.00', currency: 'USD' } }],
  image: { imageUrl: 'https://img.example/kettle.jpg' },
  additionalImages: [],
  condition: 'New',
  description: 'Boils water.',
};

const catalog = fakeCatalog({
  good: { ...base, itemId: 'good' },
  noPrice: { ...base, itemId: 'noPrice', price: undefined },
  zeroPrice: { ...base, itemId: 'zeroPrice', price: { value: '0.00', currency: 'USD' } },
  badPrice: { ...base, itemId: 'badPrice', price: { value: 'twelve', currency: 'USD' } },
  noShipping: { ...base, itemId: 'noShipping', shippingOptions: [] },
  noShippingCost: { ...base, itemId: 'noShippingCost', shippingOptions: [{ shippingCostType: 'CALCULATED' }] },
  badShipping: {
    ...base,
    itemId: 'badShipping',
    shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '-3', currency: 'USD' } }],
  },
  calculated: {
    ...base,
    itemId: 'calculated',
    shippingOptions: [{ shippingCostType: 'CALCULATED', shippingCost: { value: '7.5', currency: 'USD' } }],
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('updateWishlist with an imperfect marketplace', () => {
  it("refuses products without a price or shipping cost with the spec's messages, saving nothing", async () => {
    const [who] = await buildUsers(server, 1, 'wsvc');
    const owner = await server.deps.db.manager.findOneByOrFail(UserEntity, { id: who.user._id });
    const deps = { db: server.deps.db, catalog };
    const cases: [string, string][] = [
      ['missing', ITEM_INFO_ERROR],
      ['noPrice', ITEM_INFO_ERROR],
      ['zeroPrice', ITEM_INFO_ERROR],
      ['badPrice', ITEM_INFO_ERROR],
      ['noShipping', SHIPPING_ERROR],
      ['noShippingCost', SHIPPING_ERROR],
      ['badShipping', SHIPPING_ERROR],
    ];
    for (const [itemId, message] of cases) {
      const attempt = updateWishlist(deps, owner, { username: owner.username, items: [{ itemId: 'good' }, { itemId }] });
      await expect(attempt, itemId).rejects.toBeInstanceOf(AppError);
      await expect(attempt, itemId).rejects.toMatchObject({ status: 400, message });
    }
    expect(await server.deps.db.manager.countBy(WishlistItemEntity, { ownerId: owner.id })).toBe(0);

    // Free shipping (0) and a calculated estimate are fine.
    const saved = await updateWishlist(deps, owner, { username: owner.username, items: [{ itemId: 'good' }, { itemId: 'calculated' }] });
    expect(saved.items.map((i) => [i.price, i.shippingPrice, i.shippingCost, i.total])).toEqual([
      [20, 0, 0, 20],
      [20, 'Calculated', 7.5, 27.5],
    ]);
  });
});
