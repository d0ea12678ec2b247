import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openAs,
  registerViaApi,
  SHOTS_DIR,
  startApp,
  VIEWPORTS,
  startStories,
  stopStories,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let ben: ApiAccount;

/** The catalogue's longest title: 'Empires of Spice: A History of the World in Seven Flavors by Rohan Mehta, Hardcover'. */
const BOOK = 'v1|GL453835|0';
const FEED_END = 'There are no more links availble. Create one for it to show up on the home page.';
const BOOK_TITLE = 'Empires of Spice: A History of the World in Seven Flavors by Rohan Mehta, Hardcover';

beforeAll(async () => {
  [app, browser, ada, ben] = await startStories(['ada', 'ben']);
  await app.call(ben, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'item', itemId: BOOK } });
  await app.call(ada, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
  // Ben gives $5 to Ada's link, anonymously: a thread where he is anonymous, and a link he has used.
  const link = await app.call<{ updatedLink: { id: string } }>(ben, 'POST', '/links/ada', {});
  await app.call(ben, 'POST', '/api/billing-settings-deposit', { balance: 5 });
  await app.call(ben, 'POST', '/statuses/api/gives', { postId: link.updatedLink.id, type: 'currency', amount: 5 });
}, 120_000);
afterAll(() => stopStories(app, browser));

const as = (account: ApiAccount, viewport: { width: number; height: number } = VIEWPORTS.phone) =>
  openAs(browser, app, account, { viewport });

/** A screenshot of the viewport as it is now (not the full page), named for the viewport. */
async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const { width } = page.viewportSize()!;
  await page.screenshot({ path: path.join(SHOTS_DIR, `edges2-${name}-${width}.png`), animations: 'disabled' });
}

describe('the menu', () => {
  it('has Orders and Money history, from the keyboard, on a phone and a desktop', async () => {
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await as(ada, viewport);
      const nav = page.getByRole('navigation', { name: 'Main' });
      // Behind the menu button, not in the bar.
      await expect(nav.getByRole('link', { name: 'Orders' }).isVisible()).resolves.toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).focus();
      await page.keyboard.press('Enter');
      const orders = nav.getByRole('link', { name: 'Orders' });
      const history = nav.getByRole('link', { name: 'Money history' });
      await orders.waitFor();
      for (const link of [orders, history]) {
        const box = (await link.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      }
      await shot(page, 'menu-open');
      // Focus is in the menu; Tab reaches Money history.
      for (let i = 0; i < 12 && !(await history.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${app.url}/money`);
      await page.getByRole('heading', { name: 'Money history' }).waitFor();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await orders.click();
      await page.waitForURL(`${app.url}/orders`);
      // The page changed: the menu closed.
      await expect.poll(() => orders.isVisible()).toBe(false);
      await page.context().close();
    }
  });
});

describe('the share modal on a phone', () => {
  it('shows the preview and Download of its first step without scrolling, at 390×844', async () => {
    const page = await as(ada);
    await page.goto(`${app.url}/link/ada`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'How to Share the Link' });
    const preview = modal.getByRole('img', { name: 'Your share image, Standard style' });
    await preview.waitFor();
    await modal.getByText('Pick a style and save the image').waitFor();
    const download = modal.getByRole('button', { name: 'Download' });
    // Each is whole inside the window, above the dialog's sticky actions, with nothing scrolled.
    const actionsTop = (await modal.locator('.dialog__actions').boundingBox())!.y;
    for (const [name, box] of [
      ['preview', await preview.boundingBox()],
      ['Download', await download.boundingBox()],
    ] as const) {
      expect(box!.y, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
      expect(box!.y + box!.height, name).toBeLessThanOrEqual(actionsTop);
    }
    // The page under the modal may have scrolled to its Share button; the modal itself has not.
    const scrolled = await page.evaluate(() => [...document.querySelectorAll('dialog[open], dialog[open] *')].map((el) => el.scrollTop));
    expect(scrolled.filter((top) => top !== 0)).toEqual([]);
    // Nor sideways: the dialog's content is as wide as the dialog.
    expect(await modal.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'share-step-1');
    await page.setViewportSize(VIEWPORTS.desktop);
    await shot(page, 'share-step-1');
    await page.context().close();
  });
});

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
    await shot(page, 'long-title');
    await page.setViewportSize(VIEWPORTS.desktop);
    expect((await heroTitle(page)).lines).toBeLessThanOrEqual(3);
    await shot(page, 'long-title');
    await page.context().close();

    // The server's markup of the visitor's page draws the same, before any script runs.
    const visitor = await browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    const v = await visitor.newPage();
    await v.goto(`${app.url}/link/ben`);
    expect(await heroTitle(v)).toEqual({ lines: 3, title: full, text: full });
    await shot(v, 'long-title-visitor');
    await visitor.close();
  });
});

describe('Settings in sections', () => {
  it('shows one section at a time on a phone, chosen by keyboard or by the address, and all of them on a desktop', async () => {
    const page = await as(ada);
    await page.goto(`${app.url}/profile/ada/settings`);
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    const profile = page.getByRole('heading', { name: 'Profile', exact: true });
    const blocked = page.getByRole('region', { name: 'Blocked people' });
    await profile.waitFor();
    expect(await blocked.isVisible()).toBe(false);
    const heights: Record<string, number> = {};
    heights.profile = await page.evaluate(() => document.documentElement.scrollHeight);
    await shot(page, 'settings-profile');

    // From the keyboard: Tab to Blocked, Enter.
    const link = sections.getByRole('link', { name: 'Blocked' });
    await page.locator('body').focus();
    for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/profile/ada/settings#blocked`);
    await blocked.waitFor();
    expect(await profile.isVisible()).toBe(false);
    expect(await link.getAttribute('aria-current')).toBe('true');
    await shot(page, 'settings-blocked');

    // Each section by its address; none is as long as the old single page (2,775 px).
    for (const [hash, name] of [
      ['address', 'Shipping address'],
      ['privacy', 'Privacy'],
      ['devices', 'Signed-in devices'],
      ['data', 'Your data'],
    ]) {
      await page.goto(`${app.url}/profile/ada/settings#${hash}`);
      await page.getByRole('heading', { name, exact: true }).waitFor();
      expect(await profile.isVisible()).toBe(false);
      heights[hash] = await page.evaluate(() => document.documentElement.scrollHeight);
    }
    console.log('settings page heights at 390×844', heights);
    for (const height of Object.values(heights)) expect(height).toBeLessThan(1700);

    // A desktop: every section on the page.
    await page.setViewportSize(VIEWPORTS.desktop);
    await profile.waitFor();
    await blocked.waitFor();
    await page.getByRole('heading', { name: 'Shipping address' }).waitFor();
    await sections.getByRole('link', { name: 'Devices' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Signed-in devices' }).evaluate((el) => el.getBoundingClientRect().top))
      .toBeLessThan(200);
    await shot(page, 'settings-devices');
    await page.context().close();
  });
});

describe('the chat header', () => {
  it("shows 'you are anonymous here' whole on a phone, not cut off", async () => {
    const inbox = await app.call<unknown>(ben, 'GET', `/conversations/${ben.userId}`);
    const threads = (Array.isArray(inbox) ? inbox : (inbox as { conversations: unknown[] }).conversations) as { _id: string }[];
    const page = await as(ben);
    await page.goto(`${app.url}/messages/${threads[0]._id}`);
    const sub = page.locator('.thread__sub');
    await sub.getByText('you are anonymous here').waitFor();
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      const measure = () =>
        sub.evaluate((el) => ({
          text: el.textContent,
          overflow: el.scrollWidth - el.clientWidth,
          right: el.getBoundingClientRect().right,
        }));
      // The page may lay the header out again after the resize: wait for it to settle.
      await expect.poll(async () => (await measure()).overflow, { message: `${viewport.width}px` }).toBeLessThanOrEqual(0);
      const line = await measure();
      expect(line.text).toBe('@ada · you are anonymous here');
      expect(line.right).toBeLessThanOrEqual(viewport.width);
      await shot(page, 'thread-header');
    }
    await page.context().close();
  });
});

describe('a used invite', () => {
  it('says who joined with it, to the inviter', async () => {
    const page = await as(ada);
    await page.goto(`${app.url}/create-invite`);
    const used = page.getByRole('listitem').filter({ hasText: 'Used by' });
    await expect.poll(() => used.count()).toBe(1);
    await expect(used.textContent()).resolves.toContain('Used by @ben');
    await used.getByRole('link', { name: '@ben' }).waitFor();
    await shot(page, 'invites-used-by');
    await page.setViewportSize(VIEWPORTS.desktop);
    await shot(page, 'invites-used-by');
    await page.context().close();
  });
});

describe('the feed', () => {
  it("says an empty feed has no links yet, with Create a link, and keeps the product's end text for the end of a list", async () => {
    // A server of its own: nobody there has made a link.
    const empty = await startApp();
    try {
      const cleo = await registerViaApi(empty, empty.inviteUrl.split('/').pop()!, 'cleo');
      const page = await openAs(browser, empty, cleo);
      await page.getByRole('heading', { name: 'No links yet' }).waitFor();
      expect(await page.getByText(FEED_END).count()).toBe(0);
      await shot(page, 'feed-empty');
      await page.setViewportSize(VIEWPORTS.desktop);
      await shot(page, 'feed-empty');
      await page.getByRole('main').getByRole('link', { name: 'Create a link' }).last().click();
      await page.waitForURL(`${empty.url}/share`);
      await page.context().close();
    } finally {
      await empty.stop();
    }

    // Links to show: the end of the list says the product's end text, and nothing says there are none.
    const page = await as(ada);
    await page.getByText(FEED_END).waitFor();
    expect(await page.getByRole('heading', { name: 'No links yet' }).count()).toBe(0);
    await page.context().close();
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
      await shot(page, 'link-used');
    }
    await next.getByRole('link', { name: 'Create your own link' }).click();
    await page.waitForURL(`${app.url}/share`);
    await page.context().close();
  });
});
