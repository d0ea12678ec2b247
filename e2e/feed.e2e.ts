import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_PAGE_SIZE } from '../api/contract/limits';
import {
  launchBrowser,
  openAs,
  registerViaApi,
  screenshots,
  startApp,
  viewportShot,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness';

let app: RunningApp;
let browser: Browser;
let reader: ApiAccount;

/** More links than one page: LINK_PAGE_SIZE + 5 people, each with one receive link. */
const PEOPLE = LINK_PAGE_SIZE + 5;
const FEED_END = 'There are no more links availble. Create one for it to show up on the home page.';

beforeAll(async () => {
  app = await startApp({ AUTH_RATE_LIMIT: '1000', API_RATE_LIMIT: '10000' });
  browser = await launchBrowser();
  reader = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'reader');
});

let feeders: Promise<void> | undefined;
/** The links the feed shows, made once, after the empty feed's story. */
function feedFilled(): Promise<void> {
  feeders ??= (async () => {
    // Each account has invites of its own: register a chain, each inviting the next.
    const pending = [...reader.inviteCodes];
    for (let i = 0; i < PEOPLE; i++) {
      const account = await registerViaApi(app, pending.shift()!, `feeder${i}`);
      pending.push(...account.inviteCodes);
      await app.call(account, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 1 + (i % 9) } });
    }
  })();
  return feeders;
}

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the feed', () => {
  it('says an empty feed has no links yet, with Create a link, and no end-of-list text', async () => {
    // First in the file: nobody has made a link yet.
    const page = await openAs(browser, app, reader, { viewport: VIEWPORTS.phone });
    await page.getByRole('heading', { name: 'No links yet' }).waitFor();
    expect(await page.getByText(FEED_END).count()).toBe(0);
    await viewportShot(page, 'feed-empty');
    await page.setViewportSize(VIEWPORTS.desktop);
    await viewportShot(page, 'feed-empty');
    await page.getByRole('main').getByRole('link', { name: 'Create a link' }).last().click();
    await page.waitForURL(`${app.url}/share`);
    await page.context().close();
  });

  it('loads the next page once the reader has scrolled through 80% of what is loaded (PRODUCT.md §9)', async () => {
    await feedFilled();
    const page = await openAs(browser, app, reader, { viewport: { width: 390, height: 844 } });
    const secondPage: string[] = [];
    page.on('request', (r) => {
      if (/\/links\/all\?page=2\b/.test(r.url())) secondPage.push(r.url());
    });
    const list = page.locator('.home__list');
    await expect.poll(() => list.locator('> li').count()).toBe(LINK_PAGE_SIZE);
    await screenshots(page, 'feed');

    // Scroll so the bottom of the screen sits at a share of the list's height.
    const scrollTo = (share: number) =>
      list.evaluate((el, s) => {
        const top = el.getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, top + el.getBoundingClientRect().height * s - window.innerHeight);
      }, share);

    await scrollTo(0.7);
    await page.waitForTimeout(600);
    expect(secondPage).toEqual([]);

    await scrollTo(0.82);
    await expect.poll(() => secondPage.length).toBe(1);
    await expect.poll(() => list.locator('> li').count()).toBe(PEOPLE);
    // The last page is short: nothing more is asked for, however far the reader scrolls.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(600);
    expect(secondPage.length).toBe(1);
    // The end of the list says the product's end text, and nothing says there are none.
    await page.getByText(FEED_END).waitFor();
    expect(await page.getByRole('heading', { name: 'No links yet' }).count()).toBe(0);
    await page.context().close();
  });

  it("reads its first page once, after the page's first paint: the hero does not wait on the feed", async () => {
    await feedFilled();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const firstPage: string[] = [];
    page.on('request', (r) => {
      if (/\/links\/all\?page=1\b/.test(r.url())) firstPage.push(r.url());
    });
    await page.goto(`${app.url}/`);
    await expect.poll(() => page.locator('.home__list > li').count()).toBe(LINK_PAGE_SIZE);
    // Both times on the page's own clock: when the first content painted, and when the read began.
    const [paint, read] = await page.evaluate(() => [
      performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      performance.getEntriesByType('resource').find((entry) => /\/links\/all\?page=1\b/.test(entry.name))?.startTime ?? Number.NaN,
    ]);
    expect(paint).toBeGreaterThan(0);
    expect(read).toBeGreaterThanOrEqual(paint);
    expect(firstPage).toHaveLength(1);
    await page.context().close();
  });
});
