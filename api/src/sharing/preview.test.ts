import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from '../links/entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { DEFAULT_AVATAR } from './mark.js';
import { GENERIC_DESCRIPTION } from './preview.js';

const PUBLIC_URL = 'http://share.giftlink.test';
/** The shape of the built index.html (renderer/index.html after Vite). */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <meta name="description" content="Giftlink: receive gifts from people who love you." />
    <title>Giftlink</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/boot-abc123.js">
    <style>.whole-stylesheet{color:red}</style>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

let server: TestServer;
let webDir: string;
beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
  // As renderer/sharedPageCss.ts writes it at build time.
  fs.mkdirSync(path.join(webDir, '.vite'));
  fs.writeFileSync(
    path.join(webDir, '.vite', 'shared-page.json'),
    JSON.stringify({ stylesheet: '/assets/style-abc123.css', criticalCss: '.link-hero{color:blue}' }),
  );
  fs.copyFileSync(path.join(import.meta.dirname, '../../../renderer/public/og-card.png'), path.join(webDir, 'og-card.png'));
  server = await startTestServer({ WEB_DIR: webDir, PUBLIC_URL });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const UNFURLERS = {
  Slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  X: 'Twitterbot/1.0',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  iMessage: 'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
};

/** A page as a chat app fetches it (or a browser, with `userAgent`). */
async function fetchPage(p: string, userAgent = UNFURLERS.iMessage): Promise<{ res: Response; html: string }> {
  const res = await fetch(server.url + p, { headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': userAgent } });
  return { res, html: await res.text() };
}

const decode = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()];
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/** Every `<meta name|property=… content=…>` of the page, decoded, plus the <title>. */
function headOf(html: string): Record<string, string[]> {
  const head: Record<string, string[]> = {};
  for (const m of html.matchAll(/<meta\s+(?:name|property)="([^"]+)"\s+content="([^"]*)"\s*\/?>/g)) (head[m[1]] ??= []).push(decode(m[2]));
  head.title = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1]));
  return head;
}

/** The one value of each tag: a page must not carry two titles or two descriptions. */
function cardOf(html: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headOf(html)).map(([key, values]) => {
      expect(values, key).toHaveLength(1);
      return [key, values[0]];
    }),
  );
}

/** What the page's `#root` holds before any script runs (the server's static markup). */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  expect(start).toBeGreaterThanOrEqual(0);
  // Up to the loader the server adds after the markup (http/shared-page.ts), or the end of the body.
  const loader = html.indexOf('<script>', start);
  return html.slice(start, loader >= 0 ? loader : html.lastIndexOf('</body>'));
}

/** The text of some markup, as a browser shows it (tags dropped, entities decoded). */
const textOf = (markup: string) =>
  decode(markup.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

const create = (who: TestUser, details: Record<string, unknown>) =>
  server.request<{ id: string }>('POST', '/links/create', { token: who.token, body: { details } });

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
    const [ann] = await buildUsers(server, 1, 'pga');
    await depositFor(server, ann, 50);
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
    const onlyHead = await fetch(`${server.url}/link/${name}`, { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(onlyHead.status).toBe(200);
  });

  it('a receive link and an item link say what they ask for or give, with the display name', async () => {
    const [bo, cy] = await buildUsers(server, 2, 'prc');
    expect(
      (await server.request('PATCH', `/api/users/${bo.user._id}`, { token: bo.token, body: { displayName: 'Bo Bright' } })).status,
    ).toBe(200);
    expect((await create(bo, { giveorreceive: 'receive', type: 'currency', amount: 12.5 })).status).toBe(201);
    const receive = cardOf((await fetchPage(`/link/${bo.user.username}`)).html);
    expect(receive).toMatchObject({
      'og:title': 'Bo Bright is requesting $12.50 on Giftlink',
      'og:description': 'Send Bo Bright $12.50 as a gift, anonymously.',
      'og:image': `${PUBLIC_URL}/links/${bo.user.username}/image?template=standard&format=card`,
    });

    const products = (await server.request('GET', '/api/products/search?q=camera', { token: cy.token })).body;
    const product = products[0];
    await depositFor(server, cy, 1000);
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
    const [di] = await buildUsers(server, 1, 'pwl');
    await server.request('PATCH', `/api/users/${di.user._id}`, { token: di.token, body: { displayName: 'Di' } });
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
    const [ed, fi, gu] = await buildUsers(server, 3, 'pgn');
    await expectGeneric(`/link/${ed.user.username}`, `${PUBLIC_URL}/link/${ed.user.username}`);
    const expired = await create(fi, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await server.deps.db.source.manager.update(LinkEntity, { id: expired.body.id }, { expiresAt: new Date(Date.now() - 1000) });
    await expectGeneric(`/link/${fi.user.username}`, `${PUBLIC_URL}/link/${fi.user.username}`);
    const used = await create(gu, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await server.deps.db.source.manager.update(LinkEntity, { id: used.body.id }, { status: 'used', remainingQuantity: 0 });
    await expectGeneric(`/link/${gu.user.username}`, `${PUBLIC_URL}/link/${gu.user.username}`);
    // The generic image is a file of the site: a 1200×630 PNG.
    const png = await fetch(`${server.url}/og-card.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await png.arrayBuffer())).metadata()).toMatchObject({ width: 1200, height: 630, format: 'png' });
  });

  it('escapes a hostile display name everywhere it appears', async () => {
    const [ha] = await buildUsers(server, 1, 'phx');
    const hostile = `"><script>x('&amp;')</script><b a=' $&`;
    const patched = await server.request('PATCH', `/api/users/${ha.user._id}`, { token: ha.token, body: { displayName: hostile } });
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
    const [jo] = await buildUsers(server, 1, 'ppv');
    await depositFor(server, jo, 987.65);
    await create(jo, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    for (let i = 0; i < 3; i += 1)
      await server.request('POST', `/links/${jo.user.username}`, {
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

describe('link and wishlist pages carry their content in the HTML, before any script', () => {
  it("a link page: '@creator is requesting $20.00' inside #root, drawn as the app draws it for a visitor", async () => {
    const [mo] = await buildUsers(server, 1, 'pmk');
    await server.request('PATCH', `/api/users/${mo.user._id}`, { token: mo.token, body: { displayName: 'Mo Marsh' } });
    expect((await create(mo, { giveorreceive: 'receive', type: 'currency', amount: 20 })).status).toBe(201);
    const page = (await fetchPage(`/link/${mo.user.username}`, CHROME)).html;
    const root = rootOf(page);
    const at = `@${mo.user.username}`;
    // Nothing but the page itself before the markup's first paint: no script or preload to fetch, only the
    // markup's own CSS; an inline loader, allowed by its hash in the CSP, starts the app and the whole stylesheet after it.
    expect(page).not.toMatch(/<script[^>]*\ssrc=|modulepreload|whole-stylesheet/);
    expect(page).toContain('<style>.link-hero{color:blue}</style>');
    const loader = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(page)?.[1] ?? '';
    expect(loader).toContain('"/assets/index-abc123.js"');
    expect(loader).toContain('"/assets/style-abc123.css"');
    const hash = `'sha256-${crypto.createHash('sha256').update(loader).digest('base64')}'`;
    const csp = (await fetchPage(`/link/${mo.user.username}`, CHROME)).res.headers.get('content-security-policy') ?? '';
    expect(/script-src ([^;]*)/.exec(csp)?.[1].split(' ')).toContain(hash);
    // The build's note of those assets is the server's, never a file of the site.
    expect((await fetch(`${server.url}/.vite/shared-page.json`)).status).toBe(404);
    // Profiles are not public: the app names the creator by username, with when the link was made.
    expect(textOf(root)).toMatch(new RegExp(`${at} (just now|\\d+ seconds ago) Gift request ${at} is requesting \\$20\\.00`));
    expect(textOf(root)).not.toContain('Mo Marsh');
    // A request is a group gift: its progress, as the app shows it to everyone.
    expect(root).toContain('role="progressbar"');
    expect(textOf(root)).toContain('$0.00 of $20.00 so far');
    expect(textOf(root)).toContain('Log in or register to give to this link.');
    // 'Join Giftlink' in the banner exactly when the API offers it to the app's banner (no jump when the app takes over).
    const join = await server.request<{ available: boolean }>('GET', `/api/invites/join/${mo.user.username}`);
    expect(root.includes(`href="/register?via=${mo.user.username}">Join Giftlink</a>`)).toBe(join.body.available);
    expect(root).toContain('class="card link-hero"');
    // The creator's picture is the app's default one (profiles are not public), inline: no request, no swap.
    expect(root).toContain(`<img class="avatar" src="${DEFAULT_AVATAR}"`);
    expect(root).toContain('<main class="app-main" id="main">');
  });

  it('a wishlist page: its title and first items with their text and image', async () => {
    const [ny] = await buildUsers(server, 1, 'pmw');
    const search = async (q: string) =>
      (await server.request<{ itemId: string }[]>('GET', `/api/products/search?q=${q}`, { token: ny.token })).body;
    const products = [...(await search('camera')), ...(await search('book')), ...(await search('mug'))];
    const chosen = products.slice(0, 4);
    const saved = await server.request('PUT', '/wishlists/update', {
      token: ny.token,
      body: { username: ny.user.username, items: chosen.map((p) => ({ itemId: p.itemId })) },
    });
    expect(saved.status).toBe(200);
    const list = (
      await server.request<{ userWishlist: { items: { title: string; imageUrl: string }[] } }>('GET', `/wishlists/${ny.user.username}`)
    ).body.userWishlist.items;
    const root = rootOf((await fetchPage(`/wishlist/${ny.user.username}`, CHROME)).html);
    const text = textOf(root);
    expect(text).toContain(`@${ny.user.username}'s wishlist`);
    expect(text).toContain(`${list.length} of 7 items`);
    expect(list).toHaveLength(4);
    for (const item of list.slice(0, 3)) expect(text).toContain(item.title);
    expect(root).toContain(`src="${list[0].imageUrl}"`);
    // 'Join Giftlink' as on a link page, exactly when the API offers it to the app's banner.
    const join = await server.request<{ available: boolean }>('GET', `/api/invites/join/${ny.user.username}`);
    expect(root.includes(`href="/register?via=${ny.user.username}">Join Giftlink</a>`)).toBe(join.body.available);
    // Only the first three: the rest arrive with the app.
    expect(root.match(/class="wish-row"/g)).toHaveLength(3);
    // An empty wishlist says so.
    const [oz] = await buildUsers(server, 1, 'pme');
    expect(textOf(rootOf((await fetchPage(`/wishlist/${oz.user.username}`, CHROME)).html))).toContain('Nothing here yet');
  });

  it('a hostile display name never reaches the markup; an unknown user or a closed link has no markup', async () => {
    const [pa] = await buildUsers(server, 1, 'pmh');
    const hostile = `"><script>x('&amp;')</script><b a=' $&`;
    await server.request('PATCH', `/api/users/${pa.user._id}`, { token: pa.token, body: { displayName: hostile } });
    expect((await create(pa, { giveorreceive: 'receive', type: 'currency', amount: 20 })).status).toBe(201);
    const root = rootOf((await fetchPage(`/link/${pa.user.username}`, CHROME)).html);
    expect(root).not.toContain('<script');
    expect(root).not.toContain('<b a=');
    expect(textOf(root)).not.toContain(hostile);
    expect(textOf(root)).toContain(`@${pa.user.username} is requesting $20.00`);
    const { res, html: bare } = await fetchPage('/link/nobody-here-at-all', CHROME);
    expect(bare).toContain('<div id="root"></div>');
    // Without markup the app loads at once, preloaded, with the whole stylesheet; no inline script is allowed.
    expect(bare).toContain('<link rel="modulepreload" crossorigin href="/assets/boot-abc123.js">');
    expect(bare).toContain('<script type="module" crossorigin src="/assets/index-abc123.js"></script>');
    expect(bare).toContain('whole-stylesheet');
    expect(res.headers.get('content-security-policy')).not.toContain('sha256');
  });

  it('shows nothing private in the markup: no balance, no views, no givers', async () => {
    const [qi, giver] = await buildUsers(server, 2, 'pmp');
    await depositFor(server, qi, 987.65);
    await depositFor(server, giver, 50);
    await server.request('PATCH', `/api/users/${giver.user._id}`, { token: giver.token, body: { displayName: 'Secret Giver' } });
    const link = await create(qi, { giveorreceive: 'receive', type: 'currency', amount: 7, quantity: 3 });
    expect(link.status).toBe(201);
    const gave = await server.request('POST', '/statuses/api/gives', {
      token: giver.token,
      body: { postId: link.body.id, type: 'currency', amount: 5 },
    });
    expect(gave.status).toBe(201);
    for (let i = 0; i < 3; i += 1)
      await server.request('POST', `/links/${qi.user.username}`, {
        headers: { 'user-agent': CHROME },
        body: { sessionId: crypto.randomUUID() },
      });
    const root = rootOf((await fetchPage(`/link/${qi.user.username}`, CHROME)).html);
    expect(textOf(root)).toContain('is requesting $7.00');
    // A group gift's total so far is public (the app shows it to every visitor); who gave is not.
    expect(textOf(root)).toContain('$5.00 of $7.00 from 1 person');
    expect(textOf(root)).not.toMatch(/987|balance|visitor|views?\b|Secret Giver|\b3\b/i);
    expect(root).not.toContain(giver.user.username);
    expect(root).not.toContain(qi.user.email);
  });
});

describe('crawlers and link unfurlers never count as views or visitors', () => {
  const metrics = async (owner: TestUser) => {
    const res = await server.request<{ updatedLink: { metrics: { views: number; visitorCount: number } } }>(
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
    const [ka] = await buildUsers(server, 1, 'pbt');
    await create(ka, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    for (const [app, userAgent] of Object.entries(UNFURLERS)) {
      const res = await server.request<{ updatedLink: { details: { amount: number } } }>('POST', `/links/${ka.user.username}`, {
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

    const opened = await server.request('POST', `/links/${ka.user.username}`, {
      headers: { 'user-agent': CHROME },
      body: { sessionId: crypto.randomUUID() },
    });
    expect(opened.status).toBe(200);
    expect(await metrics(ka)).toMatchObject({ views: 1, visitorCount: 1 });
  });

  it('an unfurler still gets 404 and 410 like a browser', async () => {
    const [la] = await buildUsers(server, 1, 'pbg');
    const none = await server.request('POST', `/links/${la.user.username}`, { headers: { 'user-agent': UNFURLERS.Slack }, body: {} });
    expect(none.status).toBe(404);
    const made = await create(la, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await server.deps.db.source.manager.update(LinkEntity, { id: made.body.id }, { expiresAt: new Date(Date.now() - 1000) });
    const gone = await server.request('POST', `/links/${la.user.username}`, { headers: { 'user-agent': UNFURLERS.Slack }, body: {} });
    expect(gone.status).toBe(410);
  });
});
