import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, SHOTS_DIR, startStories, stopStories, type ApiAccount, type RunningApp, balanceButton } from './harness.js';

let app: RunningApp;
let browser: Browser;
let hana: ApiAccount;
let ivo: ApiAccount;

const createLink = (who: ApiAccount, details: Record<string, unknown>) =>
  app.call(who, 'POST', '/links/create', { creatorUserId: who.userId, creatorUsername: who.username, details });
async function receiveLinkId(who: ApiAccount): Promise<string> {
  const body = await app.call<{ updatedLink?: { id: string } }>(null, 'POST', `/links/${who.username}`, {});
  const id = body.updatedLink?.id;
  if (!id) throw new Error(`no link id in ${JSON.stringify(body)}`);
  return id;
}

beforeAll(async () => {
  [app, browser, hana, ivo] = await startStories(['hana', 'ivo']);
  // Hana ends at $999,999.99 after five movements of every common kind.
  await app.call(hana, 'POST', '/api/billing-settings-deposit', { balance: 999999.99 });
  await createLink(hana, { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1 });
  await app.call(ivo, 'PUT', '/api/accept-link', { linkCreatorUsername: hana.username });
  await app.call(hana, 'POST', '/api/billing-settings-deposit', { balance: 5 });
  await createLink(hana, { giveorreceive: 'receive', type: 'currency', amount: 10 });
  await app.call(ivo, 'POST', '/api/billing-settings-deposit', { balance: 20 });
  await app.call(ivo, 'POST', '/statuses/api/gives', { postId: await receiveLinkId(hana), type: 'currency', amount: 3 });
  await app.call(hana, 'POST', '/api/payouts/sandbox/complete', { routingNumber: '110000000', accountNumber: '000123456789' });
  await app.call(hana, 'POST', '/api/billing-settings-withdrawal', { balance: 3 });
}, 120_000);
afterAll(() => stopStories(app, browser));

/** The top bar's own screenshot at this viewport. */
async function shootBar(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.locator('header.topbar').screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), animations: 'disabled' });
}

describe('a $999,999.99 balance and its money history', () => {
  it('fits the top bar on 320, 360 and 390 px phones and a 1280 px desktop, menu reachable', async () => {
    const page = await openAs(browser, app, hana, { viewport: { width: 320, height: 640 } });
    for (const [width, height] of [
      [320, 640],
      [360, 780],
      [390, 844],
      [1280, 800],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto(`${app.url}/`);
      const balance = balanceButton(page);
      await expect.poll(() => balance.getAttribute('aria-label')).toBe('Balance $999,999.99');
      expect((await balance.textContent())?.trim()).toBe('$999,999.99');
      const fits = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect.soft(fits.scroll, `${width}px`).toBeLessThanOrEqual(fits.inner);
      const inside = async (box: { x: number; y: number; width: number; height: number } | null) => {
        expect(box, `${width}px`).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, `${width}px`).toBeLessThanOrEqual(width);
        expect(box!.y + box!.height).toBeLessThanOrEqual(height);
      };
      await inside(await balance.boundingBox());
      if (width < 1240) {
        const menu = page.getByRole('button', { name: 'Open menu' });
        await inside(await menu.boundingBox());
        await menu.click();
        const settings = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' });
        await inside(await settings.boundingBox());
        await page.keyboard.press('Escape');
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');
      } else {
        // Desktop: the first entries sit in the bar, inside the window, nothing overlapping; the rest drop down from the menu button.
        const nav = page.getByRole('navigation', { name: 'Main' });
        const last = await nav.getByRole('link', { name: 'Messages' }).boundingBox();
        await inside(last);
        const home = (await page.getByRole('link', { name: 'Home' }).boundingBox())!;
        const first = (await nav.getByRole('link', { name: 'Profile' }).boundingBox())!;
        expect(home.x + home.width).toBeLessThanOrEqual(first.x);
        expect(last!.x + last!.width).toBeLessThanOrEqual((await balance.boundingBox())!.x);
        await page.getByRole('button', { name: 'Open menu' }).click();
        await inside(await nav.getByRole('link', { name: 'Settings' }).boundingBox());
        await page.keyboard.press('Escape');
      }
      await shootBar(page, `topbar-${width}`);
    }
    await page.context().close();
  });

  it('lists every movement newest first, adding up to the balance, the anonymous gift as Anonymous', async () => {
    const page = await openAs(browser, app, hana);
    await balanceButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Your balance' });
    await expect.poll(() => dialog.textContent()).toContain('$999,999.99');
    await screenshots(page, 'balance-dialog');
    await dialog.getByRole('link', { name: 'See your money history' }).click();
    await page.waitForURL(`${app.url}/money`);
    const list = page.getByRole('list', { name: 'Money history' });
    const rows = list.getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(5);
    const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts[0]).toMatch(/^Withdrawal.*-\$3\.00 ?Balance after: Balance \$999,999\.99$/);
    expect(texts[1]).toMatch(/^Gift received ?From Anonymous.*\+\$3\.00/);
    expect(texts[1]).not.toContain('ivo');
    expect(texts[2]).toMatch(/^Deposit.*\+\$5\.00.*\$999,999\.99$/);
    expect(texts[3]).toMatch(/^Link escrow.*-\$5\.00.*\$999,994\.99$/);
    expect(texts[4]).toMatch(/^Deposit.*\+\$999,999\.99.*\$999,999\.99$/);
    await screenshots(page, 'money-history');

    // One kind only, from the keyboard.
    await page.getByLabel('Show').focus();
    await page.getByLabel('Show').selectOption('gift_received');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().textContent()).toContain('From Anonymous');

    // The CSV, same rows.
    await page.getByLabel('Show').selectOption('');
    await expect.poll(() => rows.count()).toBe(5);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(6);
    expect(csv).toContain('"Gift received",3.00,1000002.99,"Anonymous"');
    expect(csv).not.toContain('ivo');
    await page.context().close();
  });

  it('names the maker of an accepted give link, shows an empty filter, and is linked from Settings', async () => {
    const page = await openAs(browser, app, ivo, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${app.url}/profile/${ivo.username}/settings`);
    await page.getByRole('main').getByRole('link', { name: 'Money history' }).click();
    await page.waitForURL(`${app.url}/money`);
    const rows = page.getByRole('list', { name: 'Money history' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(3);
    const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts[0]).toMatch(/^Gift given ?To @hana/);
    expect(texts[2]).toMatch(/^Gift received ?From @hana.*\+\$5\.00/);
    await page.getByLabel('Show').selectOption('withdrawal');
    await page.getByRole('heading', { name: 'No withdrawal yet' }).waitFor();
    await screenshots(page, 'money-history-empty');
    await page.context().close();
  });
});
