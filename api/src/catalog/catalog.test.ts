import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';
import { EmbeddedCatalog } from './embedded.js';
import { CatalogProductEntity } from './entity.js';
import { SearchProduct, SearchResults } from '../../contract/catalog.js';

/** A small catalogue in products.json's shape, so the expectations do not hang on the shipped data. */
const product = (itemId: string, title: string, fields: Record<string, unknown> = {}) => ({
  itemId,
  title,
  category: 'Home & Kitchen',
  price: { value: '24.50', currency: 'USD' },
  shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '4.99', currency: 'USD' } }],
  condition: 'New',
  description: 'A plain description.',
  image: { imageUrl: `/catalog/images/${itemId.toLowerCase().replace(/\W/g, '-')}.jpg` },
  additionalImages: [],
  keywords: [],
  ...fields,
});

const fixture = [
  product('v1|T1|0', 'Halcyra Retro Instant Print Camera, Blush Pink', {
    category: 'Electronics',
    price: { value: '129.00', currency: 'USD' },
    shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '0.00', currency: 'USD' } }],
    description: 'Point, shoot and hold a print in seconds.',
    image: { imageUrl: '/catalog/images/retro-camera.jpg' },
    additionalImages: [{ imageUrl: '/catalog/images/retro-camera-2.jpg' }],
    keywords: ['film', 'instant'],
  }),
  product('v1|T2|0', 'Digital Mirrorless Camera Body', {
    category: 'Electronics',
    description: 'Sharp even under a desk lamp.',
    keywords: ['photography'],
  }),
  product('v1|T3|0', 'Retro Desk Lamp, Brass', {
    shippingOptions: [{ shippingCostType: 'CALCULATED', shippingCost: { value: '12.00', currency: 'USD' } }],
  }),
  product('v1|T4|0', 'Leather Camera Strap', { condition: 'Used', description: 'Fits any retro camera.' }),
  product('v1|T5|0', 'Ceramic Pour-Over Coffee Dripper', { price: { value: 18, currency: 'USD' }, keywords: ['cafe'] }),
  product('v1|T6|0', 'Open Notebook 100% Recycled_Paper'),
  { itemId: 'v1|BAD|0', title: 'No price here', image: { imageUrl: '/catalog/images/x.jpg' } },
];

let server: TestServer;
let token: string;
let catalogDir: string;
let jpeg: Buffer;

beforeAll(async () => {
  catalogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-catalog-'));
  fs.mkdirSync(path.join(catalogDir, 'images'));
  fs.writeFileSync(path.join(catalogDir, 'products.json'), JSON.stringify(fixture));
  jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0ffee' } })
    .jpeg()
    .toBuffer();
  fs.writeFileSync(path.join(catalogDir, 'images', 'retro-camera.jpg'), jpeg);
  fs.writeFileSync(path.join(catalogDir, 'secret.txt'), 'not an image');
  server = await startTestServer({ CATALOG_DIR: catalogDir });
  ({ token } = await buildUser(server));
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(catalogDir, { recursive: true, force: true });
});

/** A list of products, or an error answer. */
type Answer = SearchProduct[] & Partial<{ error: string; message: string }>;
const search = (q: string, t: string | null = token) =>
  server.request<Answer>('GET', `/api/products/search?q=${encodeURIComponent(q)}`, { token: t ?? undefined });
const ids = (list: SearchProduct[]) => list.map((p) => p.itemId);

describe('GET /api/products/search (embedded catalogue)', () => {
  it('finds products by a title word, whatever its case', async () => {
    for (const q of ['camera', 'CAMERA', 'Camera']) {
      const res = await search(q);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(['v1|T1|0', 'v1|T2|0', 'v1|T4|0']);
    }
  });

  it('answers title matches before products that only mention the words', async () => {
    // The camera (earlier in the catalogue) mentions a lamp; the lamp has it in its title.
    expect(ids((await search('lamp')).body)).toEqual(['v1|T3|0', 'v1|T2|0']);
    expect(ids((await search('desk lamp')).body)).toEqual(['v1|T3|0', 'v1|T2|0']);
  });

  it('needs every word of the query, in any field and order', async () => {
    expect(ids((await search('retro camera')).body)).toEqual(['v1|T1|0', 'v1|T4|0']);
    expect(ids((await search('camera   RETRO')).body)).toEqual(['v1|T1|0', 'v1|T4|0']);
    expect(ids((await search('retro lamp')).body)).toEqual(['v1|T3|0']);
    expect(ids((await search('retro mirrorless')).body)).toEqual([]);
    expect(ids((await search('photography')).body)).toEqual(['v1|T2|0']); // a keyword
    expect(ids((await search('kitchen dripper')).body)).toEqual(['v1|T5|0']); // category + title
    expect(ids((await search('came')).body)).toHaveLength(3); // words match by their start
    expect(ids((await search('amera')).body)).toEqual([]); // …not in the middle
  });

  it('answers an empty list when nothing matches, and treats wildcards as text', async () => {
    for (const q of ['zebra', '%', '_', '%%%', 'recycled_paper', '100%']) {
      const res = await search(q);
      expect(res.status, q).toBe(200);
      if (q.startsWith('recycled') || q === '100%') expect(ids(res.body), q).toEqual(['v1|T6|0']);
      else expect(res.body, q).toEqual([]);
    }
  });

  it('answers each product in the spec shape, amounts with two decimals', async () => {
    const res = await search('retro');
    expect(SearchResults.safeParse(res.body).success).toBe(true);
    expect(res.body[0]).toEqual({
      itemId: 'v1|T1|0',
      title: 'Halcyra Retro Instant Print Camera, Blush Pink',
      price: { value: '129.00', currency: 'USD' },
      shippingOptions: [{ shippingCostType: 'FIXED', shippingCost: { value: '0.00', currency: 'USD' } }],
      image: { imageUrl: '/catalog/images/retro-camera.jpg' },
      additionalImages: [{ imageUrl: '/catalog/images/retro-camera-2.jpg' }],
      condition: 'New',
      description: 'Point, shoot and hold a print in seconds.',
    });
    const lamp = res.body.find((p) => p.itemId === 'v1|T3|0');
    expect(lamp?.shippingOptions).toEqual([{ shippingCostType: 'CALCULATED', shippingCost: { value: '12.00', currency: 'USD' } }]);
    const dripper = (await search('dripper')).body[0];
    expect(dripper.price).toEqual({ value: '18.00', currency: 'USD' });
  });

  it('leaves out invalid products of the file', async () => {
    expect((await search('price')).body).toEqual([]);
    expect(await server.deps.db.manager.count(CatalogProductEntity)).toBe(6);
  });

  it("refuses adult and profane searches with 'Haha noo...'", async () => {
    for (const q of ['porn', 'sex toy', 'P0RN mag', 'dildo', 'fuuuck']) {
      const res = await search(q);
      expect(res.status, q).toBe(400);
      expect(res.body, q).toEqual({ error: 'blocked_query', message: 'Haha noo...' });
    }
    for (const q of ['cumin', 'shiitake', 'cocktail shaker', 'bass guitar', 'Essex']) {
      expect((await search(q)).status, q).toBe(200);
    }
  });

  it('needs a session', async () => {
    const res = await search('camera', null);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it('validates q: present, not blank, at most 100 characters', async () => {
    for (const q of [undefined, '', '   ', 'a'.repeat(101)]) {
      const res = await server.request('GET', `/api/products/search${q === undefined ? '' : `?q=${q}`}`, { token });
      expect(res.status, String(q)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    expect((await search('a'.repeat(101))).body.message).toBe('Searches can be at most 100 characters.');
    expect((await search('a'.repeat(100))).status).toBe(200);
  });

  it('caps the number of results', async () => {
    const catalog = new EmbeddedCatalog(server.deps.db, catalogDir, server.deps.log);
    expect(await catalog.search('camera', 1)).toHaveLength(1);
    expect(await catalog.search('a b c d e f g h i j k l m n o p')).toEqual([]);
  });
});

describe('GET /api/products/:itemId', () => {
  it('answers one product, or 404 with the wishlist text', async () => {
    const res = await server.request('GET', `/api/products/${encodeURIComponent('v1|T3|0')}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Retro Desk Lamp, Brass');
    const missing = await server.request('GET', `/api/products/${encodeURIComponent('v1|NOPE|0')}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("There was an error loading this item's information. Please try again later.");
    expect((await server.request('GET', '/api/products/%3Cscript%3E', { token })).status).toBe(400);
    expect((await server.request('GET', '/api/products/v1%7CT3%7C0')).status).toBe(401);
  });
});

describe('GET /catalog/images/:name', () => {
  it('serves a catalogue image as JPEG with long caching and safe headers', async () => {
    const res = await fetch(`${server.url}/catalog/images/retro-camera.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d{7,}/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);

    const again = await fetch(`${server.url}/catalog/images/retro-camera.jpg`, {
      // (fetch would add `cache-control: no-cache` to a conditional request; a browser revalidating does not)
      headers: { 'if-none-match': res.headers.get('etag')!, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
  });

  it('serves a small square copy at ?w=144, cached like the picture, and no other width', async () => {
    const res = await fetch(`${server.url}/catalog/images/retro-camera.jpg?w=144`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d{7,}/);
    const small = Buffer.from(await res.arrayBuffer());
    expect(await sharp(small).metadata()).toMatchObject({ format: 'jpeg', width: 144, height: 144 });
    const full = await fetch(`${server.url}/catalog/images/retro-camera.jpg`);
    expect(res.headers.get('etag')).not.toBe(full.headers.get('etag'));
    const again = await fetch(`${server.url}/catalog/images/retro-camera.jpg?w=144`, {
      headers: { 'if-none-match': res.headers.get('etag')!, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
    for (const w of ['100', '1440', 'abc', ''])
      expect((await fetch(`${server.url}/catalog/images/retro-camera.jpg?w=${w}`)).status, w).toBe(404);
  });

  it('answers 404 for anything but an existing catalogue JPEG', async () => {
    for (const name of ['missing.jpg', 'secret.txt', '..%2Fproducts.json', '..%2F..%2Fetc%2Fpasswd', 'RETRO-CAMERA.JPG', '.hidden.jpg']) {
      const res = await server.request('GET', `/catalog/images/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual({ error: 'not_found', message: 'Not found' });
    }
    // a NUL in any path is refused before any route (http/input.ts)
    const nul = await server.request('GET', '/catalog/images/retro-camera.jpg%00.png');
    expect(nul.status).toBe(400);
    expect(nul.body.error).toBe('invalid_characters');
  });
});

describe('loading products.json', () => {
  it('reloads when the file changes, once, even when two loaders race', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-catalog-'));
    try {
      const { db, log } = server.deps;
      fs.writeFileSync(path.join(dir, 'products.json'), JSON.stringify([...fixture, product('v1|T7|0', 'Velvet Throw Pillow')]));
      const loaders = [1, 2, 3].map(() => new EmbeddedCatalog(db, dir, log));
      await Promise.all(loaders.map((l) => l.load()));
      expect(await db.manager.count(CatalogProductEntity)).toBe(7);
      expect(ids(await loaders[0].search('velvet pillow'))).toEqual(['v1|T7|0']);

      await loaders[0].load(); // unchanged: nothing to do
      expect(await db.manager.count(CatalogProductEntity)).toBe(7);

      fs.writeFileSync(path.join(dir, 'products.json'), JSON.stringify(fixture.slice(0, 2)));
      await loaders[1].load();
      expect(await db.manager.count(CatalogProductEntity)).toBe(2);
      expect(await loaders[1].search('velvet')).toEqual([]);
    } finally {
      // Put the fixture back for the other tests.
      await new EmbeddedCatalog(server.deps.db, catalogDir, server.deps.log).load();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops start-up on a products.json that is not JSON', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-catalog-'));
    fs.writeFileSync(path.join(dir, 'products.json'), '[{"itemId": ');
    try {
      await expect(new EmbeddedCatalog(server.deps.db, dir, server.deps.log).load()).rejects.toThrow(/not valid JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const shipped = path.resolve('resources/catalog');
describe.skipIf(!fs.existsSync(path.join(shipped, 'products.json')))('the shipped catalogue', () => {
  it('loads every product, with its images present', async () => {
    const list = JSON.parse(fs.readFileSync(path.join(shipped, 'products.json'), 'utf8')) as Array<{
      itemId: string;
      title: string;
      image: { imageUrl: string };
      additionalImages: Array<{ imageUrl: string }>;
    }>;
    const real = await startTestServer({ CATALOG_DIR: shipped });
    try {
      expect(await real.deps.db.manager.count(CatalogProductEntity)).toBe(list.length);
      for (const p of list)
        for (const url of [p.image.imageUrl, ...p.additionalImages.map((i) => i.imageUrl)])
          expect(fs.existsSync(path.join(shipped, 'images', url.replace('/catalog/images/', ''))), url).toBe(true);
      const { token: t } = await buildUser(real);
      const word = list[0].title.split(/\s+/)[0];
      const res = await real.request<SearchProduct[]>('GET', `/api/products/search?q=${encodeURIComponent(word)}`, { token: t });
      expect(res.status).toBe(200);
      expect(res.body.map((p) => p.itemId)).toContain(list[0].itemId);
      const img = await fetch(`${real.url}${list[0].image.imageUrl}`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/jpeg');
    } finally {
      await real.close();
    }
  });
});
