/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  openAs,
  SHOTS_DIR,
  startStories,
  stopStories,
  type ApiAccount,
  type RunningApp,
  balanceButton,
  viewportShot,
  VIEWPORTS,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let tara: ApiAccount;

beforeAll(async () => {
  [app, browser, tara] = await startStories(['tara']);
  // The largest balance the product's amounts allow in one deposit: under $1,000,000.
  await app.call(tara, 'POST', '/api/billing-settings-deposit', { userId: tara.userId, balance: 999999.99 });
}, 120_000);
afterAll(() => stopStories(app, browser));

/**
 * The balance button's box; the bar's controls (each with all it draws, text that spills out
 * included) that share a pixel with another; and whether the balance is on top at its middle.
 */
const barLayout = (page: Page) =>
  page.evaluate(() => {
    const balance = document.querySelector<HTMLElement>('header.topbar .balance-button')!;
    const box = balance.getBoundingClientRect();
    const extent = (el: Element) =>
      [el, ...el.querySelectorAll('*')]
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0)
        .reduce(
          (a, r) => ({
            left: Math.min(a.left, r.left),
            right: Math.max(a.right, r.right),
            top: Math.min(a.top, r.top),
            bottom: Math.max(a.bottom, r.bottom),
          }),
          { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity },
        );
    const all = [...document.querySelectorAll<HTMLElement>('header.topbar a, header.topbar button')];
    const controls = all
      .filter((el) => el.getClientRects().length > 0 && !all.some((other) => other !== el && other.contains(el)))
      .map((el) => ({ name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName, r: extent(el) }));
    const overlaps: string[] = [];
    controls.forEach((a, i) =>
      controls.slice(i + 1).forEach((b) => {
        if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom)
          overlaps.push(`${a.name} / ${b.name}`);
      }),
    );
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
      overlaps,
      onTop: !!hit && balance.contains(hit),
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
    };
  });

/** Tabs from the top of the page to the balance button, as a keyboard user would. */
async function tabToBalance(page: Page): Promise<void> {
  await page.locator('body').focus();
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('balance-button'))) return;
  }
  throw new Error('Tab never reached the balance');
}

describe('the top bar with a $999,999.99 balance', () => {
  it('shows the full amount at 320, 360, 390 and 1280 px, inside the window, nothing overlapping it', async () => {
    const page = await openAs(browser, app, tara, { viewport: { width: 320, height: 640 } });
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    for (const [width, height] of [
      [320, 640],
      [360, 780],
      [390, 844],
      [1280, 800],
    ]) {
      const at = `${width}px`;
      await page.setViewportSize({ width, height });
      await page.goto(`${app.url}/`);
      const balance = balanceButton(page);
      await expect.poll(() => balance.getAttribute('aria-label')).toBe('Balance $999,999.99');
      expect((await balance.textContent())?.trim(), at).toBe('$999,999.99');

      const layout = await barLayout(page);
      expect(layout.scrollWidth, at).toBeLessThanOrEqual(layout.innerWidth);
      expect(layout.box.left, at).toBeGreaterThanOrEqual(0);
      expect(layout.box.right, at).toBeLessThanOrEqual(layout.innerWidth);
      expect(layout.box.top, at).toBeGreaterThanOrEqual(0);
      expect(layout.box.bottom, at).toBeLessThanOrEqual(layout.innerHeight);
      // Tappable: 36 px tall or more and on top at its middle; no two controls of the bar share a pixel.
      expect(layout.box.bottom - layout.box.top, at).toBeGreaterThanOrEqual(36);
      expect(layout.overlaps, at).toEqual([]);
      expect(layout.onTop, at).toBe(true);

      // Keyboard focus on it is visible (the app's focus ring is a box shadow).
      await tabToBalance(page);
      const focus = await balance.evaluate((el) => ({ visible: el.matches(':focus-visible'), ring: getComputedStyle(el).boxShadow }));
      expect(focus.visible, at).toBe(true);
      expect(focus.ring, at).not.toBe('none');
      await page.screenshot({ path: path.join(SHOTS_DIR, `topbar-balance-${width}.png`), animations: 'disabled' });
      await expectNoAxeViolations(page, `top bar (${at})`);

      await balance.click();
      await page.getByRole('dialog', { name: 'Your balance' }).waitFor();
      await page.keyboard.press('Escape');
    }
    await page.context().close();
  });
});

/** 'Expires in 3 hours 12 minutes' → 192. */
function minutesLeft(text: string): number {
  const match = /^Expires in (?:(\d+) hours?)? ?(?:(\d+) minutes?)?$/.exec(text);
  if (!match) throw new Error(`not a time left: ${text}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

describe("the owner's link card", () => {
  it("counts 'Expires in …' down as the minutes pass", async () => {
    await app.call(tara, 'POST', '/links/create', {
      creatorUserId: tara.userId,
      creatorUsername: tara.username,
      details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1 },
    });
    const page = await openAs(browser, app, tara);
    await page.clock.install();
    await page.goto(`${app.url}/link/${tara.username}`);
    await page.getByRole('heading', { name: 'Link Metrics' }).waitFor();
    const left = page.getByText(/^Expires in /);
    const first = minutesLeft((await left.textContent())!.trim());
    expect(first).toBeGreaterThan(62);

    // An hour and a minute later, without a reload: the text has moved with the clock.
    await page.clock.fastForward('01:01:00');
    await expect.poll(async () => minutesLeft((await left.textContent())!.trim())).toBeLessThanOrEqual(first - 61);
    expect(minutesLeft((await left.textContent())!.trim())).toBeGreaterThanOrEqual(first - 62);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'link-expires-countdown.png'), animations: 'disabled' });
    await page.context().close();
  });
});

describe('the menu', () => {
  it('has Orders and Money history, from the keyboard, on a phone and a desktop', async () => {
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await openAs(browser, app, tara, { viewport });
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
      await viewportShot(page, 'menu-open');
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
