import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openAs, registerViaApi, SHOTS_DIR, startApp, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  ada = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'ada');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

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
