import crypto from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LinkEntity } from '../links/entity.js';
import { CHROME, PUBLIC_URL, UNFURLERS, cardOf, headOf, rootOf, usePageServer } from '../testing/pages.js';
import { buildUsers, depositFor, type TestUser } from '../testing/server.js';
import { GENERIC_DESCRIPTION } from './preview.js';

const site = usePageServer();
const { fetchPage, create } = site;

async function expectGeneric(p: string, url: string) {
  const { res, html } = await fetchPage(p);
  expect(res.status, p).toBe(200);
  expect(cardOf(html)).toMatchObject({
    title: 'Giftlink',
    description: GENERIC_DESCRIPTION,
    'og:title': 'Giftlink',
    'og:description': GENERIC_DESCRIPTION,
    'og:image': `${PUBLIC_URL}/og-card.png`,
    'og:url': url,
    'twitter:card': 'summary_large_image',
    'twitter:image': `${PUBLIC_URL}/og-card.png`,
  });
  expect(html).toContain('<div id="root">');
}

describe('link pages unfurl into a card', () => {
  it('a give link: its texts, the card image and the page URL under PUBLIC_URL, in the app page', async () => {
    const [ann] = await buildUsers(site.server, 1, 'pga');
    await depositFor(site.server, ann, 50);
    expect((await create(ann, { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 3 })).status).toBe(201);
    const name = ann.user.username;
    const { res, html } = await fetchPage(`/link/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'[ ;]/);
    const title = `${name} is giving $5.00 on Giftlink`;
    const image = `${PUBLIC_URL}/links/${name}/image?template=standard&format=card`;
    expect(cardOf(html)).toEqual({
      title,
      description: `Open the link to receive $5.00 from ${name}.`,
      'og:type': 'website',
      'og:site_name': 'Giftlink',
      'og:title': title,
      'og:description': `Open the link to receive $5.00 from ${name}.`,
      'og:url': `${PUBLIC_URL}/link/${name}`,
      'og:image': image,
      'og:image:type': 'image/png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': title,
      'twitter:card': 'summary_large_image',
      'twitter:title': title,
      'twitter:description': `Open the link to receive $5.00 from ${name}.`,
      'twitter:image': image,
      'twitter:image:alt': title,
      viewport: 'width=device-width, initial-scale=1, viewport-fit=cover',
    });
    // Still the app: its root, the tags inside <head>, and one script: the loader that starts the app's entry.
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    expect(head).toContain('property="og:image"');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toMatch(/<script>[^<]*"\/assets\/index-abc123\.js"[^<]*<\/script>\s*<\/body>/);
    expect(rootOf(html)).toContain(`@${name} is giving <span class="link-hero__what">$5.00</span>`);
    // The same for a browser, a HEAD, and the username in another case.
    expect(cardOf((await fetchPage(`/link/${name.toUpperCase()}/`, CHROME)).html)['og:title']).toBe(title);
    const onlyHead = await fetch(`${site.server.url}/link/${name}`, { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(onlyHead.status).toBe(200);
  });

  it('a receive link and an item link say what they ask for or give, with the display name', async () => {
    const [bo, cy] = await buildUsers(site.server, 2, 'prc');
    expect(
      (await site.server.request('PATCH', `/api/users/${bo.user._id}`, { token: bo.token, body: { displayName: 'Bo Bright' } })).status,
    ).toBe(200);
    expect((await create(bo, { giveorreceive: 'receive', type: 'currency', amount: 12.5 })).status).toBe(201);
    const receive = cardOf((await fetchPage(`/link/${bo.user.username}`)).html);
    expect(receive).toMatchObject({
      'og:title': 'Bo Bright is requesting $12.50 on Giftlink',
      'og:description': 'Send Bo Bright $12.50 as a gift, anonymously.',
      'og:image': `${PUBLIC_URL}/links/${bo.user.username}/image?template=standard&format=card`,
    });

    const products = (await site.server.request('GET', '/api/products/search?q=camera', { token: cy.token })).body;
    const product = products[0];
    await depositFor(site.server, cy, 1000);
    expect((await create(cy, { giveorreceive: 'give', type: 'item', itemId: product.itemId, amount: 1 })).status).toBe(201);
    const item = cardOf((await fetchPage(`/link/${cy.user.username}`)).html);
    expect(item).toMatchObject({
      title: `${cy.user.username} is giving ${product.title} on Giftlink`,
      'og:title': `${cy.user.username} is giving ${product.title} on Giftlink`,
      'og:url': `${PUBLIC_URL}/link/${cy.user.username}`,
      'twitter:card': 'summary_large_image',
    });
  });

  it("a wishlist page: '{name}'s wishlist on Giftlink' with the wishlist's card image", async () => {
    const [di] = await buildUsers(site.server, 1, 'pwl');
    await site.server.request('PATCH', `/api/users/${di.user._id}`, { token: di.token, body: { displayName: 'Di' } });
    const card = cardOf((await fetchPage(`/wishlist/${di.user.username}`)).html);
    expect(card).toMatchObject({
      title: "Di's wishlist on Giftlink",
      'og:title': "Di's wishlist on Giftlink",
      'og:description': 'See what Di is wishing for and send a gift.',
      'og:url': `${PUBLIC_URL}/wishlist/${di.user.username}`,
      'og:image': `${PUBLIC_URL}/wishlists/${di.user.username}/image?template=standard&format=card`,
      'twitter:image': `${PUBLIC_URL}/wishlists/${di.user.username}/image?template=standard&format=card`,
      'og:image:width': '1200',
      'og:image:height': '630',
    });
  });

  it('an unknown user, no link, an expired or a used link: the generic card, still the app (200)', async () => {
    await expectGeneric('/link/nobody-here-at-all', `${PUBLIC_URL}/link/nobody-here-at-all`);
    await expectGeneric('/wishlist/nobody-here-at-all', `${PUBLIC_URL}/wishlist/nobody-here-at-all`);
    await expectGeneric('/link/%E0%A4%A', `${PUBLIC_URL}/`);
    const [ed, fi, gu] = await buildUsers(site.server, 3, 'pgn');
    await expectGeneric(`/link/${ed.user.username}`, `${PUBLIC_URL}/link/${ed.user.username}`);
    const expired = await create(fi, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await site.server.deps.db.source.manager.update(LinkEntity, { id: expired.body.id }, { expiresAt: new Date(Date.now() - 1000) });
    await expectGeneric(`/link/${fi.user.username}`, `${PUBLIC_URL}/link/${fi.user.username}`);
    const used = await create(gu, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await site.server.deps.db.source.manager.update(LinkEntity, { id: used.body.id }, { status: 'used', remainingQuantity: 0 });
    await expectGeneric(`/link/${gu.user.username}`, `${PUBLIC_URL}/link/${gu.user.username}`);
    // The generic image is a file of the site: a 1200×630 PNG.
    const png = await fetch(`${site.server.url}/og-card.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await png.arrayBuffer())).metadata()).toMatchObject({ width: 1200, height: 630, format: 'png' });
  });

  it('escapes a hostile display name everywhere it appears', async () => {
    const [ha] = await buildUsers(site.server, 1, 'phx');
    const hostile = `"><script>x('&amp;')</script><b a=' $&`;
    const patched = await site.server.request('PATCH', `/api/users/${ha.user._id}`, { token: ha.token, body: { displayName: hostile } });
    expect(patched.status).toBe(200);
    expect((await create(ha, { giveorreceive: 'receive', type: 'currency', amount: 5 })).status).toBe(201);
    for (const p of [`/link/${ha.user.username}`, `/wishlist/${ha.user.username}`]) {
      const { html } = await fetchPage(p);
      expect(html).not.toContain(hostile);
      expect(html).not.toContain('<b a=');
      // The one script is the server's own loader (http/shared-page.ts).
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(html).toMatch(/<script>\(function\(\)\{var done=false;/);
      const card = cardOf(html);
      // Read back as a parser would, the values are the name itself.
      expect(card['og:title']).toContain(hostile);
      expect(card.title).toContain(hostile);
      expect(card['twitter:description']).toContain(hostile);
    }
  });

  it('shows nothing private: no balance, no views, no visitors', async () => {
    const [jo] = await buildUsers(site.server, 1, 'ppv');
    await depositFor(site.server, jo, 987.65);
    await create(jo, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    for (let i = 0; i < 3; i += 1)
      await site.server.request('POST', `/links/${jo.user.username}`, {
        headers: { 'user-agent': CHROME },
        body: { sessionId: crypto.randomUUID() },
      });
    const { html } = await fetchPage(`/link/${jo.user.username}`);
    const card = Object.entries(headOf(html)).filter(([key]) => key !== 'viewport');
    const tags = JSON.stringify(card);
    expect(tags).not.toMatch(/987|balance|visitor|views?\b|\b3\b/i);
    expect(tags).not.toContain(jo.user.email);
  });
});

describe('crawlers and link unfurlers never count as views or visitors', () => {
  const metrics = async (owner: TestUser) => {
    const res = await site.server.request<{ updatedLink: { metrics: { views: number; visitorCount: number } } }>(
      'POST',
      `/links/${owner.user.username}`,
      {
        token: owner.token,
        body: {},
      },
    );
    return res.body.updatedLink.metrics;
  };

  it('unfurlers opening the link (and fetching its HTML) add nothing; a browser adds a view and a visitor', async () => {
    const [ka] = await buildUsers(site.server, 1, 'pbt');
    await create(ka, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    for (const [app, userAgent] of Object.entries(UNFURLERS)) {
      const res = await site.server.request<{ updatedLink: { details: { amount: number } } }>('POST', `/links/${ka.user.username}`, {
        headers: { 'user-agent': userAgent },
        body: { sessionId: crypto.randomUUID() },
      });
      expect(res.status, app).toBe(200);
      expect(res.body.updatedLink.details.amount, app).toBe(5);
      expect((await fetchPage(`/link/${ka.user.username}`, userAgent)).res.status, app).toBe(200);
    }
    // A browser's HTML fetch is not a view either: the app's POST is.
    await fetchPage(`/link/${ka.user.username}`, CHROME);
    expect(await metrics(ka)).toMatchObject({ views: 0, visitorCount: 0 });

    const opened = await site.server.request('POST', `/links/${ka.user.username}`, {
      headers: { 'user-agent': CHROME },
      body: { sessionId: crypto.randomUUID() },
    });
    expect(opened.status).toBe(200);
    expect(await metrics(ka)).toMatchObject({ views: 1, visitorCount: 1 });
  });

  it('an unfurler still gets 404 and 410 like a browser', async () => {
    const [la] = await buildUsers(site.server, 1, 'pbg');
    const none = await site.server.request('POST', `/links/${la.user.username}`, { headers: { 'user-agent': UNFURLERS.Slack }, body: {} });
    expect(none.status).toBe(404);
    const made = await create(la, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await site.server.deps.db.source.manager.update(LinkEntity, { id: made.body.id }, { expiresAt: new Date(Date.now() - 1000) });
    const gone = await site.server.request('POST', `/links/${la.user.username}`, { headers: { 'user-agent': UNFURLERS.Slack }, body: {} });
    expect(gone.status).toBe(410);
  });
});
