import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Link } from '../links/entity.js';
import { newUserRecord, type User } from '../users/entity.js';
import type { WishlistItem } from '../wishlists/entity.js';
import { forPeople, linkContent, pictureSource, wishlistContent, type ShareContent } from './content.js';
import { loadFonts } from './fonts.js';
import { shareLayout, textsOf } from './layout.js';
import { LruCache } from '../lru.js';
import { ShareRenderer } from './render.js';
import { shareImageUrl, sharePageUrl } from './urls.js';

const creator: User = {
  ...newUserRecord({ username: 'ann', email: 'ann@example.com', passwordHash: 'x' }),
  displayName: 'Ann Lee',
  balanceCents: 123456,
};

function link(fields: Partial<Link>): Link {
  const now = new Date();
  return {
    id: 'l1',
    creatorId: creator.id,
    type: 'currency',
    giveOrReceive: 'give',
    amountCents: 500,
    initialQuantity: 3,
    remainingQuantity: 3,
    title: null,
    photo: null,
    itemId: null,
    totalCostCents: 1500,
    raisedCents: 0,
    gifts: 0,
    status: 'active',
    views: 42,
    createdAt: now,
    expiresAt: now,
    closedAt: null,
    ...fields,
  };
}

describe('what the image says', () => {
  it('words give and receive, currency and item, as the share text does', () => {
    const cases: [Partial<Link>, string, string | undefined, string][] = [
      [{}, 'is giving', '$5', 'for 3 people, $5 each'],
      [{ remainingQuantity: 1 }, 'is giving', '$5', 'for one person'],
      [{ amountCents: 250, remainingQuantity: 2 }, 'is giving', '$2.50', 'for 2 people, $2.50 each'],
      [{ giveOrReceive: 'receive', amountCents: 199 }, 'is asking for', '$1.99', 'Send a gift, anonymously'],
      [
        { type: 'item', title: 'Camp Lantern', photo: '/catalog/images/lantern.jpg', remainingQuantity: 1 },
        'is giving',
        undefined,
        'for one person',
      ],
      [{ type: 'item', giveOrReceive: 'receive', title: 'Camp Lantern' }, 'is asking for', undefined, 'Send a gift, anonymously'],
    ];
    for (const [fields, headline, amount, note] of cases) {
      const content = linkContent('https://gift.example', creator, link(fields));
      expect(content, JSON.stringify(fields)).toMatchObject({
        headline,
        note,
        displayName: 'Ann Lee',
        username: 'ann',
        shortLink: 'gift.example/link/ann',
      });
      expect(content.amount).toBe(amount);
      if (fields.type === 'item') expect(content.item?.title).toBe('Camp Lantern');
    }
    expect(forPeople(1)).toBe('for one person');
    expect(forPeople(2)).toBe('for 2 people');
  });

  it("shows a wishlist's open items, and an empty one by name", () => {
    const item = (title: string, purchased: boolean) =>
      ({ id: title, title, imageUrl: '/catalog/images/x.jpg', purchased }) as WishlistItem;
    const full = wishlistContent('http://localhost:3000', creator, [item('Mat', false), item('Lamp', true), item('Tent', false)]);
    expect(full).toMatchObject({ headline: 'My wishlist', note: '2 wishes to make come true', shortLink: 'localhost:3000/wishlist/ann' });
    expect(full.wishes?.map((w) => w.title)).toEqual(['Mat', 'Tent']);
    const empty = wishlistContent('http://localhost:3000', { ...creator, displayName: '' }, []);
    expect(empty).toMatchObject({ displayName: 'ann', headline: 'My wishlist', wishes: [] });
    const texts = textsOf(shareLayout(empty, { avatar: null, item: null, wishes: [] }, 'standard', 'story'));
    expect(texts).toEqual(expect.arrayContaining(['ann', '@ann', 'My wishlist', 'Giftlink']));
  });

  it('reads only our own picture locations', () => {
    expect(pictureSource('/uploads/0b8f3c2e-1111-4222-8333-444455556666.jpg')).toEqual({
      kind: 'upload',
      path: '/uploads/0b8f3c2e-1111-4222-8333-444455556666.jpg',
    });
    expect(pictureSource('/catalog/images/tent-2.jpg')).toEqual({ kind: 'catalog', path: '/catalog/images/tent-2.jpg' });
    expect(pictureSource('https://i.ebayimg.com/a.jpg')).toEqual({ kind: 'remote', url: 'https://i.ebayimg.com/a.jpg' });
    for (const bad of ['/uploads/../../etc/passwd', '/catalog/images/../x.jpg', 'file:///etc/passwd', 'javascript:x', '', null])
      expect(pictureSource(bad)).toBeNull();
  });

  it('builds absolute URLs under PUBLIC_URL', () => {
    expect(shareImageUrl('https://gift.example/', 'link', 'ann', { format: 'card' })).toBe(
      'https://gift.example/links/ann/image?template=standard&format=card',
    );
    expect(shareImageUrl('https://gift.example', 'wishlist', 'ann')).toBe(
      'https://gift.example/wishlists/ann/image?template=standard&format=story',
    );
    expect(sharePageUrl('https://gift.example', 'wishlist', 'ann')).toBe('https://gift.example/wishlist/ann');
  });
});

describe('the LRU', () => {
  it('keeps the most recently used entries', () => {
    const lru = new LruCache<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.size).toBe(2);
  });
});

describe('the renderer', () => {
  const fonts = loadFonts();
  let pictures: http.Server;
  let base = '';
  beforeAll(async () => {
    pictures = http.createServer((req, res) => {
      if (req.url === '/slow.jpg') return; // never answers: the render goes on without it
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    pictures.closeAllConnections();
    pictures.close();
  });

  const renderer = () =>
    new ShareRenderer({
      fonts,
      uploadsDir: '/nonexistent',
      catalogImagesDir: 'resources/catalog/images',
      fetchTimeoutMs: 200,
      cacheEntries: 2,
    });
  const content: ShareContent = linkContent('http://localhost:3000', creator, link({}));

  it('draws once per key, for concurrent and repeated requests, within its bound', async () => {
    const r = renderer();
    const [a, b] = await Promise.all([r.png('k1', content, 'standard', 'card'), r.png('k1', content, 'standard', 'card')]);
    expect(a).toBe(b);
    await r.png('k1', content, 'standard', 'card');
    expect(r.renders).toBe(1);
    await r.png('k2', content, 'purple-gradient', 'card');
    await r.png('k3', content, 'blue-gradient', 'card');
    await r.png('k1', content, 'standard', 'card'); // dropped by the bound of 2: drawn again
    expect(r.renders).toBe(4);
  }, 30_000);

  it('goes without a remote picture that does not come in time, and does not keep that image', async () => {
    const r = renderer();
    const item = linkContent('http://localhost:3000', creator, link({ type: 'item', title: 'Lantern', photo: `${base}/slow.jpg` }));
    const started = Date.now();
    const png = await r.png('slow', item, 'standard', 'card');
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(Date.now() - started).toBeLessThan(10_000);
    await r.png('slow', item, 'standard', 'card');
    expect(r.renders).toBe(2);
    const missingUpload = { ...content, avatar: pictureSource('/uploads/0b8f3c2e-1111-4222-8333-444455556666.jpg') };
    await r.png('missing', missingUpload, 'standard', 'card');
    await r.png('missing', missingUpload, 'standard', 'card');
    expect(r.renders).toBe(3); // a missing file of ours is the default avatar, kept
  }, 30_000);

  it("embeds the catalogue's picture and draws text as paths", async () => {
    const r = renderer();
    const item = linkContent(
      'http://localhost:3000',
      creator,
      link({ type: 'item', title: 'Yoga Mat', photo: '/catalog/images/alder-outdoor-6mm-comfort-non-slip-yoga-mat-lavender.jpg' }),
    );
    const svg = await r.svg(item, 'green-gradient', 'story');
    expect(svg).toContain('data:image/jpeg;base64,');
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain('Yoga Mat');
  }, 30_000);
});
