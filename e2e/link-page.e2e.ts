import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, startStories, stopStories, viewportShot, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let ben: ApiAccount;

/** The catalogue's longest title: 'Empires of Spice: A History of the World in Seven Flavors by Rohan Mehta, Hardcover'. */
const BOOK = 'v1|GL453835|0';
const BOOK_TITLE = 'Empires of Spice: A History of the World in Seven Flavors by Rohan Mehta, Hardcover';

beforeAll(async () => {
  [app, browser, ada, ben] = await startStories(['ada', 'ben']);
  await app.call(ben, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'item', itemId: BOOK } });
  await app.call(ada, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
  // Ben gives $5 to Ada's link, anonymously: a link he has used.
  const link = await app.call<{ updatedLink: { id: string } }>(ben, 'POST', '/links/ada', {});
  await app.call(ben, 'POST', '/api/billing-settings-deposit', { balance: 5 });
  await app.call(ben, 'POST', '/statuses/api/gives', { postId: link.updatedLink.id, type: 'currency', amount: 5 });
}, 120_000);
afterAll(() => stopStories(app, browser));

const as = (account: ApiAccount, viewport: { width: number; height: number } = VIEWPORTS.phone) =>
  openAs(browser, app, account, { viewport });

/** The link page's title: how many lines it shows, and the whole of it as its tooltip. */
const heroTitle = (page: Page) =>
  page.locator('#link-title').evaluate((el) => {
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
    return { lines: Math.round(el.getBoundingClientRect().height / lineHeight), title: el.getAttribute('title'), text: el.textContent };
  });

describe('a long item title on the link page', () => {
  it('takes at most 3 lines on a phone, the full title its tooltip, for a member and for a visitor', async () => {
    const full = `@ben is requesting ${BOOK_TITLE}`;
    const page = await as(ada);
    await page.goto(`${app.url}/link/ben`);
    await page.getByRole('heading', { level: 1, name: full }).waitFor();
    // Polled: the app takes the server's markup over, and the heading it measured may be replaced.
    await expect.poll(() => heroTitle(page)).toEqual({ lines: 3, title: full, text: full });
    await viewportShot(page, 'link-page-long-title');
    await page.setViewportSize(VIEWPORTS.desktop);
    expect((await heroTitle(page)).lines).toBeLessThanOrEqual(3);
    await viewportShot(page, 'link-page-long-title');
    await page.context().close();

    // The server's markup of the visitor's page draws the same, before any script runs.
    const visitor = await browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    const v = await visitor.newPage();
    await v.goto(`${app.url}/link/ben`);
    expect(await heroTitle(v)).toEqual({ lines: 3, title: full, text: full });
    await viewportShot(v, 'link-page-long-title-visitor');
    await visitor.close();
  });
});

describe('a link used before', () => {
  it("says the product's 'you can't use this link more than once' and offers a way on", async () => {
    const page = await as(ben);
    await page.goto(`${app.url}/link/ada`);
    await page.getByText("you can't use this link more than once").waitFor();
    const next = page.getByRole('region', { name: 'What next' });
    await next.getByRole('link', { name: 'Go to your feed' }).waitFor();
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      // Both buttons whole inside the card, their words not cut.
      const card = (await next.boundingBox())!;
      for (const button of await next.getByRole('link').all()) {
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(card.x);
        expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width);
        expect(await button.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      }
      await viewportShot(page, 'link-page-link-used');
    }
    await next.getByRole('link', { name: 'Create your own link' }).click();
    await page.waitForURL(`${app.url}/share`);
    await page.context().close();
  });
});
