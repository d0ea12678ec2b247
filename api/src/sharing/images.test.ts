import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from '../links/entity.js';
import { UserEntity } from '../users/entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { shareLayout, textsOf } from './layout.js';
import { createShareRenderer, linkImage } from './service.js';
import { SHARE_FORMATS, SHARE_TEMPLATES, shareImagePath } from './urls.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/**
 * A GET of raw bytes (the test server's `request` reads text). A revalidation sends
 * `Cache-Control: max-age=0` as browsers do: fetch() would add `no-cache`, which forbids a 304.
 */
async function get(path: string, headers: Record<string, string> = {}) {
  const revalidate: Record<string, string> = headers['If-None-Match'] ? { 'Cache-Control': 'max-age=0' } : {};
  const res = await fetch(server.url + path, { headers: { ...revalidate, ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

/** A PNG's pixel size, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const createLink = async (who: TestUser, details: Record<string, unknown>) => {
  const res = await server.request('POST', '/links/create', { token: who.token, body: { details } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
};

async function firstProduct(who: TestUser): Promise<{ itemId: string; title: string }> {
  const res = await server.request('GET', '/api/products/search?q=lantern', { token: who.token });
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('share images', () => {
  let giver: TestUser;
  let asker: TestUser;
  beforeAll(async () => {
    [giver, asker] = await buildUsers(server, 2, 'img');
    await depositFor(server, giver, 100);
    await createLink(giver, { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 3 });
    const product = await firstProduct(asker);
    await createLink(asker, { giveorreceive: 'receive', type: 'item', itemId: product.itemId });
  });

  it('answers a PNG of the right size for every template and format, story by default', async () => {
    const expected = { story: { width: 1080, height: 1920 }, card: { width: 1200, height: 630 } };
    for (const template of SHARE_TEMPLATES)
      for (const format of SHARE_FORMATS) {
        const res = await get(shareImagePath('link', giver.user.username, template, format));
        expect(res.status, `${template} ${format}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(pngSize(res.bytes), `${template} ${format}`).toEqual(expected[format]);
      }
    const plain = await get(`/links/${giver.user.username}/image`);
    expect(pngSize(plain.bytes)).toEqual(expected.story);
    const story = await get(shareImagePath('link', giver.user.username, 'standard', 'story'));
    expect(plain.headers.get('etag')).toBe(story.headers.get('etag'));
  }, 120_000);

  it('draws a give link and an item link differently', async () => {
    const give = await get(shareImagePath('link', giver.user.username, 'blue-gradient', 'card'));
    const item = await get(shareImagePath('link', asker.user.username, 'blue-gradient', 'card'));
    expect(give.status).toBe(200);
    expect(item.status).toBe(200);
    expect(give.bytes.equals(item.bytes)).toBe(false);
    expect(give.headers.get('etag')).not.toBe(item.headers.get('etag'));
  });

  it('revalidates by ETag (304 without a body) and draws anew when the link changes', async () => {
    const path = shareImagePath('link', giver.user.username, 'green-gradient', 'story');
    const first = await get(path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
    // A template or format is another image.
    const card = await get(shareImagePath('link', giver.user.username, 'green-gradient', 'card'));
    expect(card.headers.get('etag')).not.toBe(etag);

    const [taker] = await buildUsers(server, 1, 'tk');
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: taker.token,
      body: { linkCreatorUsername: giver.user.username },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const changed = await get(path, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.bytes.equals(first.bytes)).toBe(false);
  });

  it('answers 400 for a bad template or format, and 404 and 410 like the link page', async () => {
    const badTemplate = await get(`/links/${giver.user.username}/image?template=pink`);
    expect(badTemplate.status).toBe(400);
    expect(badTemplate.json()).toMatchObject({
      error: 'validation_failed',
      message: expect.stringMatching(/^template: must be one of standard/),
    });
    const badFormat = await get(`/wishlists/${giver.user.username}/image?format=square`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.json().message).toMatch(/^format: must be one of story, card/);

    expect((await get('/links/nobody-here/image')).json()).toEqual({ error: 'not_found', message: 'Link not found' });
    const [linkless] = await buildUsers(server, 1, 'nl');
    const none = await get(`/links/${linkless.user.username}/image`);
    expect(none.status).toBe(404);
    expect(none.json().message).toBe('Link not found');

    const [expiring] = await buildUsers(server, 1, 'ex');
    const link = await createLink(expiring, { giveorreceive: 'receive', type: 'currency', amount: 3 });
    expect((await get(`/links/${expiring.user.username}/image?format=card`)).status).toBe(200);
    await server.deps.db.transaction((em) => em.update(LinkEntity, { id: link.id }, { expiresAt: new Date(Date.now() - 1000) }));
    const gone = await get(`/links/${expiring.user.username}/image?format=card`);
    expect(gone.status).toBe(410);
    expect(gone.json()).toEqual({ error: 'gone', message: 'Link is no longer available.' });
    expect((await get('/wishlists/nobody-here/image')).status).toBe(404);
  });

  it('draws a wishlist, empty or not, and a new image when it changes', async () => {
    const [wisher] = await buildUsers(server, 1, 'wi');
    const empty = await get(shareImagePath('wishlist', wisher.user.username, 'orange-gradient', 'card'));
    expect(empty.status).toBe(200);
    expect(pngSize(empty.bytes)).toEqual({ width: 1200, height: 630 });
    const product = await firstProduct(wisher);
    const saved = await server.request('PUT', '/wishlists/update', {
      token: wisher.token,
      body: { username: wisher.user.username, items: [{ itemId: product.itemId }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const full = await get(shareImagePath('wishlist', wisher.user.username, 'orange-gradient', 'card'));
    expect(full.status).toBe(200);
    expect(full.headers.get('etag')).not.toBe(empty.headers.get('etag'));
  });
});

describe('what a share image shows', () => {
  it('shows the creator, the amount and the short link, and nothing private', async () => {
    const [owner, giver, visitor] = await buildUsers(server, 3, 'pv');
    await server.deps.db.transaction((em) =>
      em.update(UserEntity, { id: owner.user._id }, { displayName: 'Olive Owner', bio: 'secret bio', location: 'Hidden Town' }),
    );
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: giver.user._id }, { displayName: 'Gus Giver' }));
    await depositFor(server, owner, 4321.09);
    await depositFor(server, giver, 50);
    const link = await createLink(owner, { giveorreceive: 'receive', type: 'currency', amount: 7, initialQuantity: 2 });
    await server.request('POST', `/links/${owner.user.username}`, { token: visitor.token, body: { sessionId: crypto.randomUUID() } });
    const gave = await server.request('POST', '/statuses/api/gives', {
      token: giver.token,
      // Less than the $7 asked for: a receive link stays open until the gifts reach it.
      body: { postId: link.id, type: 'currency', amount: 5 },
    });
    expect(gave.status, JSON.stringify(gave.body)).toBe(201);

    const renderer = createShareRenderer(server.deps.config);
    const owners = await server.request('GET', '/api/auth/me', { token: owner.token });
    const balance: number = owners.body.balance ?? owners.body.user?.balance;
    expect(balance).toBeGreaterThan(4000);
    const secrets = [
      owner.user.email,
      'secret bio',
      'Hidden Town',
      String(balance),
      balance.toFixed(2),
      '4,3',
      owner.user._id,
      giver.user.username,
      giver.user.email,
      'Gus Giver',
      giver.user._id,
      visitor.user.username,
      visitor.user.email,
      visitor.user._id,
    ];
    for (const template of SHARE_TEMPLATES)
      for (const format of SHARE_FORMATS) {
        const image = await linkImage(server.deps.db, server.deps.config, owner.user.username, template, format);
        const texts = textsOf(shareLayout(image.content, { avatar: null, item: null, wishes: [] }, template, format));
        expect(texts).toEqual(expect.arrayContaining(['Olive Owner', `@${owner.user.username}`, '$7', 'is asking for']));
        expect(texts.join('\n')).toContain(`/link/${owner.user.username}`);
        const drawn = `${texts.join('\n')}\n${JSON.stringify(image.content)}`;
        for (const secret of secrets) expect(drawn, `${template} ${format}: ${secret}`).not.toContain(secret);
        expect(drawn).not.toMatch(/view|visit/i);
      }
    const svg = await renderer.svg(
      (await linkImage(server.deps.db, server.deps.config, owner.user.username, 'standard', 'story')).content,
      'standard',
      'story',
    );
    expect(svg).toMatch(/^<svg[^>]*width="360"[^>]*height="640"/);
    expect(svg).not.toContain('<text');
    for (const secret of secrets) expect(svg).not.toContain(secret);
  }, 60_000);
});

describe("the image routes' limit", () => {
  it('answers 429 past a tenth of API_RATE_LIMIT a window per client', async () => {
    const limited = await startTestServer({ API_RATE_LIMIT: '30' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/links/nobody/image?format=card`)).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const res = await fetch(`${limited.url}/wishlists/nobody/image`);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
