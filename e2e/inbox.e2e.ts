import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openAs, registerViaApi, screenshots, startApp, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;
let firstGiver: ApiAccount;
/** A catalogue camera with fixed shipping. */
const CAMERA = 'v1|GL765785|0';
/** Gifts to the owner, each from a giver of their own: a conversation each (more than one page of 25). */
const GIFTS = 30;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ INVITES_PER_USER: String(GIFTS + 2), AUTH_RATE_LIMIT: '1000' }), launchBrowser()]);
  owner = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'inboxowner');
  await app.call(owner, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 500 } });
  const link = await app.call<{ updatedLink: { id: string } }>(owner, 'POST', `/links/${owner.username}`, {});
  // The first giver also buys the owner a camera from the wishlist: a thread with a gift of each kind.
  const saved = await app.call<{ userWishlist: { items: { _id: string }[] } }>(owner, 'PUT', '/wishlists/update', {
    username: owner.username,
    items: [{ itemId: CAMERA }],
  });
  for (let i = 0; i < GIFTS; i++) {
    const giver = await registerViaApi(app, owner.inviteCodes[i], `inboxgiver${i}`);
    if (i === 0) {
      firstGiver = giver;
      await app.call(giver, 'POST', '/api/billing-settings-deposit', { balance: 200 });
      await app.call(giver, 'POST', '/wishlists/purchase', { wishlistUsername: owner.username, itemId: saved.userWishlist.items[0]._id });
    }
    await app.call(giver, 'POST', '/api/billing-settings-deposit', { balance: 1 });
    await app.call(giver, 'POST', '/statuses/api/gives', { postId: link.updatedLink.id, type: 'currency', amount: 1 });
  }
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the inbox', () => {
  it('shows the first 25 conversations, then the rest as the reader scrolls down', async () => {
    const page = await openAs(browser, app, owner);
    await page.goto(`${app.url}/conversations`);
    const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(25);
    expect(await rows.count()).toBeLessThan(GIFTS);
    await screenshots(page, 'inbox-first-page');
    await page.mouse.wheel(0, 20_000);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(GIFTS);
    // Every one once, anonymous givers as Anonymous, and no more to load.
    const links = await rows.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(new Set(links).size).toBe(GIFTS);
    expect(await rows.filter({ hasText: 'Anonymous' }).count()).toBe(GIFTS);
    await expect.poll(() => page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await screenshots(page, 'inbox-all-pages');
    await page.context().close();
  }, 60_000);

  it("the giver's inbox reads 'You gave $1.00'; the recipient's 'You received a gift of $1.00!'", async () => {
    const b = await openAs(browser, app, firstGiver, { viewport: VIEWPORTS.desktop });
    await b.goto(`${app.url}/conversations`);
    await b.getByText('You gave $1.00').first().waitFor();
    expect(await b.getByText(/You: You received/).count()).toBe(0);
    expect(await b.getByText(/You received a gift/).count()).toBe(0);
    await screenshots(b, 'inbox-giver');
    // In the thread too: both of the first giver's anonymous gifts, as their giver reads them.
    await b.getByText('You gave $1.00').first().click();
    await b.waitForURL(/\/messages\//);
    await b.getByText('You gave $1.00').first().waitFor();
    await b.getByText('Halcyra Retro Instant Print Camera, Blush Pink').first().waitFor();
    expect(await b.getByText(/You received a gift/).count()).toBe(0);
    await screenshots(b, 'inbox-thread-giver');

    const a = await openAs(browser, app, owner, { viewport: VIEWPORTS.desktop });
    await a.goto(`${app.url}/conversations`);
    await a.getByText('You received a gift of $1.00!').first().waitFor();
    expect(await a.getByText(/You gave/).count()).toBe(0);
    await screenshots(a, 'inbox-recipient');
  });
});
