import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openAs, registerViaApi, screenshots, startApp, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;
/** Gifts to the owner, each from a giver of their own: a conversation each (more than one page of 25). */
const GIFTS = 30;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ INVITES_PER_USER: String(GIFTS + 2), AUTH_RATE_LIMIT: '1000' }), launchBrowser()]);
  owner = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'inboxowner');
  await app.call(owner, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 500 } });
  const link = await app.call<{ updatedLink: { id: string } }>(owner, 'POST', `/links/${owner.username}`, {});
  for (let i = 0; i < GIFTS; i++) {
    const giver = await registerViaApi(app, owner.inviteCodes[i], `inboxgiver${i}`);
    await app.call(giver, 'POST', '/api/billing-settings-deposit', { balance: 1 });
    await app.call(giver, 'POST', '/statuses/api/gives', { postId: link.updatedLink.id, type: 'currency', amount: 1 });
  }
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('an inbox longer than a page', () => {
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
});
