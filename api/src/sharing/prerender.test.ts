import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { shareRendererOf } from './prerender.js';
import { createShareRenderer, linkImage, wishlistImage, type ShareImage } from './service.js';
import { SHARE_FORMATS, shareImagePath, type ShareKind } from './urls.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SHARE_IMAGES_AT_CREATION: 'true' });
});
afterAll(() => server?.close());

const imagesOf = (kind: ShareKind, username: string): Promise<ShareImage[]> =>
  Promise.all(
    SHARE_FORMATS.map((format) =>
      (kind === 'link' ? linkImage : wishlistImage)(server.deps.db, server.deps.config, username, 'standard', format),
    ),
  );

/** Waits until every format's image of `username` is in the app's cache, without requesting one. */
async function drawnAhead(kind: ShareKind, username: string): Promise<ShareImage[]> {
  const renderer = shareRendererOf(server.deps);
  const images = await imagesOf(kind, username);
  await expect.poll(() => images.every((i) => renderer.has(i.etag)), { timeout: 20_000, interval: 50 }).toBe(true);
  return images;
}

async function getImage(kind: ShareKind, username: string, format: 'story' | 'card') {
  const res = await fetch(server.url + shareImagePath(kind, username, 'standard', format));
  return { status: res.status, etag: res.headers.get('etag'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('share images drawn when a link is created', () => {
  let owner: TestUser;
  beforeAll(async () => {
    [owner] = await buildUsers(server, 1, 'pre');
  });

  it('draws the story and the card right after the create answer, so requesting them draws nothing', async () => {
    const renderer = shareRendererOf(server.deps);
    const created = await server.request('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 6 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const images = await drawnAhead('link', owner.user.username);
    const drawn = renderer.renders;
    for (const [i, format] of SHARE_FORMATS.entries()) {
      const res = await getImage('link', owner.user.username, format);
      expect(res.status).toBe(200);
      expect(res.etag).toBe(images[i].etag);
      expect(res.bytes.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(renderer.renders).toBe(drawn);
  }, 60_000);

  it('draws only what the link shows anyone: the same image a visitor is drawn', async () => {
    const [maker] = await buildUsers(server, 1, 'prv');
    const created = await server.request('POST', '/links/create', {
      token: maker.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 4 } },
    });
    expect(created.status).toBe(201);
    const [story] = await drawnAhead('link', maker.user.username);
    const ahead = await getImage('link', maker.user.username, 'story');
    // A renderer of its own draws the image from the public content alone, as for any visitor.
    const fresh = await createShareRenderer(server.deps.config).png(story.etag, story.content, 'standard', 'story');
    expect(ahead.bytes.equals(fresh)).toBe(true);
    expect(JSON.stringify(story.content)).not.toContain(maker.user.email);
    expect(JSON.stringify(story.content)).not.toContain(maker.user._id);
  }, 60_000);

  it('draws a saved wishlist ahead too', async () => {
    const [wisher] = await buildUsers(server, 1, 'prw');
    const search = await server.request<{ itemId: string }[]>('GET', '/api/products/search?q=lantern', { token: wisher.token });
    const saved = await server.request('PUT', '/wishlists/update', {
      token: wisher.token,
      body: { username: wisher.user.username, items: [{ itemId: search.body[0].itemId }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await drawnAhead('wishlist', wisher.user.username);
    const renderer = shareRendererOf(server.deps);
    const drawn = renderer.renders;
    expect((await getImage('wishlist', wisher.user.username, 'story')).status).toBe(200);
    expect(renderer.renders).toBe(drawn);
  }, 60_000);

  it('draws nothing ahead when SHARE_IMAGES_AT_CREATION is off; the request draws it', async () => {
    const off = await startTestServer();
    try {
      const [maker] = await buildUsers(off, 1, 'pro');
      expect(
        (
          await off.request('POST', '/links/create', {
            token: maker.token,
            body: { details: { giveorreceive: 'receive', type: 'currency', amount: 3 } },
          })
        ).status,
      ).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const renderer = shareRendererOf(off.deps);
      expect(renderer.renders).toBe(0);
      expect((await fetch(off.url + shareImagePath('link', maker.user.username, 'standard', 'card'))).status).toBe(200);
      expect(renderer.renders).toBe(1);
    } finally {
      await off.close();
    }
  }, 60_000);
});
