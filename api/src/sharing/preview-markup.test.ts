import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FEED_LOADING, HOME_FEED_TITLE, HOME_HEADLINE, HOME_INTRO, LOGIN_TAGLINE, LOGIN_TITLE } from '../../contract/texts.js';
import { CHROME, headOf, rootOf, usePageServer, textOf } from '../testing/pages.js';
import { buildUsers, depositFor } from '../testing/server.js';
import { DEFAULT_AVATAR } from './mark.js';

const site = usePageServer();
const { fetchPage, create } = site;

/**
 * A page with markup of its own fetches no script or preload before its paint; its inline loader
 * (answered) is allowed by its hash in the page's CSP.
 */
function allowedLoader(res: Response, html: string): string {
  expect(html).not.toMatch(/<script[^>]*\ssrc=|modulepreload/);
  const loader = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(html)?.[1] ?? '';
  const hash = `'sha256-${crypto.createHash('sha256').update(loader).digest('base64')}'`;
  expect(/script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1].split(' ')).toContain(hash);
  return loader;
}

/** The HTML of `path` as a newly registered user's browser gets it. */
async function signedInPage(path: string, prefix: string): Promise<string> {
  const [user] = await buildUsers(site.server, 1, prefix);
  const res = await fetch(`${site.server.url}${path}`, {
    headers: { accept: 'text/html', 'user-agent': CHROME, 'x-auth-token': user.token },
  });
  return res.text();
}

describe('link and wishlist pages carry their content in the HTML, before any script', () => {
  it("a link page: '@creator is requesting $20.00' inside #root, drawn as the app draws it for a visitor", async () => {
    const [mo] = await buildUsers(site.server, 1, 'pmk');
    await site.server.request('PATCH', `/api/users/${mo.user._id}`, { token: mo.token, body: { displayName: 'Mo Marsh' } });
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
    expect((await fetch(`${site.server.url}/.vite/shared-page.json`)).status).toBe(404);
    // Profiles are not public: the app names the creator by username, with when the link was made.
    expect(textOf(root)).toMatch(new RegExp(`${at} (just now|\\d+ seconds ago) Gift request ${at} is requesting \\$20\\.00`));
    expect(textOf(root)).not.toContain('Mo Marsh');
    // A request is a group gift: its progress, as the app shows it to everyone.
    expect(root).toContain('role="progressbar"');
    expect(textOf(root)).toContain('$0.00 of $20.00 so far');
    expect(textOf(root)).toContain('Log in or register to give to this link.');
    // 'Join Giftlink' in the banner exactly when the API offers it to the app's banner (no jump when the app takes over).
    const join = await site.server.request<{ available: boolean }>('GET', `/api/invites/join/${mo.user.username}`);
    expect(join.body.available).toBe(true);
    expect(root).toMatch(new RegExp(`<a href="/register\\?via=${mo.user.username}"[^>]*>Join Giftlink</a>`));
    expect(root).toContain('class="card link-hero"');
    // The creator's picture is the app's default one (profiles are not public), inline: no request, no swap.
    expect(root).toContain(`<img class="avatar" src="${DEFAULT_AVATAR}"`);
    expect(root).toContain('<main class="app-main" id="main">');
  });

  it("a visitor's home page: the hero and the feed's header inside #root, started like a shared page; a signed-in user's is the app's own", async () => {
    const { res, html } = await fetchPage('/', CHROME);
    expect(res.status).toBe(200);
    const root = rootOf(html);
    expect(textOf(root)).toContain(`Giftlink ${HOME_HEADLINE} ${HOME_INTRO} Create a link`);
    expect(textOf(root)).toContain(`${HOME_FEED_TITLE} Refresh ${FEED_LOADING}`);
    expect(root).toContain('<main class="app-main" id="main"><div class="home">');
    expect(root).toContain('Log in or register to gain full access to all features');
    // As a shared page: its own CSS, no script before the paint, the loader allowed by its hash.
    expect(allowedLoader(res, html)).toContain('"/assets/index-abc123.js"');
    // index.html's own title and description stay.
    expect(headOf(html).title).toEqual(['Giftlink']);
    // Signed in, the home page greets its user by name: the app draws it, from the plain index.html.
    const plain = await signedInPage('/', 'phm');
    expect(plain).toContain('<div id="root"></div>');
    expect(plain).toMatch(/<script type="module"[^>]*\ssrc=/);
  });

  it("a visitor's login page: the card and its form inside #root, posted nowhere by the browser; a signed-in user's is the app's own", async () => {
    const { res, html } = await fetchPage('/login', CHROME);
    expect(res.status).toBe(200);
    const root = rootOf(html);
    expect(textOf(root)).toBe(`${LOGIN_TITLE} ${LOGIN_TAGLINE} Email Password Forgot password? Log in New here? Register with an invite`);
    // The app's own field ids, which its takeover carries typed values by; no top bar on an auth page.
    expect(root).toContain('<input id="login-email" class="input" type="email" name="email"');
    expect(root).toContain('<input id="login-password" class="input" type="password" name="password"');
    expect(root).not.toContain('topbar');
    // Even with no script at all, a submit never puts the password in an address.
    expect(root).toContain('<form class="form" method="post"');
    expect(allowedLoader(res, html)).toContain("addEventListener('submit'");
    // Signed in, the app sends its user on from /login: the plain index.html, no form to show.
    expect(await signedInPage('/login', 'plg')).toContain('<div id="root"></div>');
  });

  it('a wishlist page: its title and first items with their text and image', async () => {
    const [ny] = await buildUsers(site.server, 1, 'pmw');
    const search = async (q: string) =>
      (await site.server.request<{ itemId: string }[]>('GET', `/api/products/search?q=${q}`, { token: ny.token })).body;
    const products = [...(await search('camera')), ...(await search('book')), ...(await search('mug'))];
    const chosen = products.slice(0, 4);
    const saved = await site.server.request('PUT', '/wishlists/update', {
      token: ny.token,
      body: { username: ny.user.username, items: chosen.map((p) => ({ itemId: p.itemId })) },
    });
    expect(saved.status).toBe(200);
    const list = (
      await site.server.request<{ userWishlist: { items: { title: string; imageUrl: string }[] } }>('GET', `/wishlists/${ny.user.username}`)
    ).body.userWishlist.items;
    const { html } = await fetchPage(`/wishlist/${ny.user.username}`, CHROME);
    const root = rootOf(html);
    const text = textOf(root);
    expect(text).toContain(`@${ny.user.username}'s wishlist`);
    expect(text).toContain(`${list.length} of 7 items`);
    expect(list).toHaveLength(4);
    for (const item of list.slice(0, 3)) expect(text).toContain(item.title);
    // The pictures' small copies, the first one asked for first and at once, from the head.
    const thumb = `${list[0].imageUrl}?w=144`;
    expect(root).toContain(`<img src="${thumb}" alt width="72" height="72" fetchpriority="high"/>`);
    expect(root).toContain(`<img src="${list[1].imageUrl}?w=144" alt width="72" height="72"/>`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="preload" as="image" href="${thumb}" fetchpriority="high"/>`);
    expect(head.indexOf('rel="preload" as="image"')).toBeLessThan(html.indexOf('<body'));
    // 'Join Giftlink' as on a link page, exactly when the API offers it to the app's banner.
    const join = await site.server.request<{ available: boolean }>('GET', `/api/invites/join/${ny.user.username}`);
    expect(join.body.available).toBe(true);
    expect(root).toMatch(new RegExp(`<a href="/register\\?via=${ny.user.username}"[^>]*>Join Giftlink</a>`));
    // Only the first three: the rest arrive with the app.
    expect(root.match(/class="wish-row"/g)).toHaveLength(3);
    // An empty wishlist says so.
    const [oz] = await buildUsers(site.server, 1, 'pme');
    expect(textOf(rootOf((await fetchPage(`/wishlist/${oz.user.username}`, CHROME)).html))).toContain('Nothing here yet');
  });

  it('a hostile display name never reaches the markup; an unknown user or a closed link has no markup', async () => {
    const [pa] = await buildUsers(site.server, 1, 'pmh');
    const hostile = `"><script>x('&amp;')</script><b a=' $&`;
    await site.server.request('PATCH', `/api/users/${pa.user._id}`, { token: pa.token, body: { displayName: hostile } });
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
    const [qi, giver] = await buildUsers(site.server, 2, 'pmp');
    await depositFor(site.server, qi, 987.65);
    await depositFor(site.server, giver, 50);
    await site.server.request('PATCH', `/api/users/${giver.user._id}`, { token: giver.token, body: { displayName: 'Secret Giver' } });
    const link = await create(qi, { giveorreceive: 'receive', type: 'currency', amount: 7, quantity: 3 });
    expect(link.status).toBe(201);
    const gave = await site.server.request('POST', '/statuses/api/gives', {
      token: giver.token,
      body: { postId: link.body.id, type: 'currency', amount: 5 },
    });
    expect(gave.status).toBe(201);
    for (let i = 0; i < 3; i += 1)
      await site.server.request('POST', `/links/${qi.user.username}`, {
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
