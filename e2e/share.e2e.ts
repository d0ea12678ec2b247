/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowConsoleError,
  freshAccount,
  logIn,
  openAs,
  SHOTS_DIR,
  startStories,
  stopStories,
  viewportShot,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let sasha: ApiAccount;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TEXT = "I'm giving away 2 dollars to 3 people! Open my Giftlink to claim yours:";
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

beforeAll(async () => {
  [app, browser, sasha] = await startStories(['sasha']);
  await app.call(sasha, 'POST', '/api/billing-settings-deposit', { userId: sasha.userId, balance: 20 });
});
afterAll(() => stopStories(app, browser));

/**
 * Records what leaves the page instead of leaving: new tabs (X's post intent), followed `sms:`
 * links, and the system share sheet (on a phone context, which Chromium on Linux has none of).
 */
function recordExits(context: BrowserContext, { shareSheet = false } = {}) {
  return context.addInitScript((withShareSheet: boolean) => {
    const exits: { opened: string[]; sms: string[]; shared: { name: string; type: string; size: number }[] } = {
      opened: [],
      sms: [],
      shared: [],
    };
    (window as unknown as { __exits: typeof exits }).__exits = exits;
    window.open = (url?: string | URL) => {
      exits.opened.push(String(url));
      return null;
    };
    document.addEventListener(
      'click',
      (event) => {
        const a = event.target instanceof HTMLAnchorElement ? event.target : null;
        if (a?.href.startsWith('sms:')) {
          exits.sms.push(a.href);
          event.preventDefault();
        }
      },
      true,
    );
    if (withShareSheet) {
      Object.assign(navigator, {
        canShare: (data?: ShareData) => !!data?.files?.length,
        share: async (data?: ShareData) => {
          for (const f of data?.files ?? []) exits.shared.push({ name: f.name, type: f.type, size: f.size });
        },
      });
    }
  }, shareSheet);
}

const exits = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __exits: { opened: string[]; sms: string[]; shared: { name: string; type: string; size: number }[] } })
        .__exits,
  );

/** The saved share images in IndexedDB 'ImageDB' (store shareImages). */
const cachedShareImages = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('ImageDB');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = await new Promise<{ username: string; images: { url: string; blob: Blob }[] }[]>((resolve) => {
      const r = db.transaction('shareImages').objectStore('shareImages').getAll();
      r.onsuccess = () => resolve(r.result);
    });
    db.close();
    return all.map((x) => ({ username: x.username, urls: x.images.map((i) => i.url), bytes: x.images.map((i) => i.blob.size) }));
  });

const shareModal = (page: Page) => page.getByRole('dialog', { name: 'How to Share the Link' });

/**
 * Phone and desktop screenshots of the open modal, whole: the window grows to the dialog's
 * height (it scrolls inside its own layer, which a full-page screenshot does not unroll).
 */
async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    const height = await page.evaluate(() => document.querySelector('dialog[open]')?.scrollHeight ?? 0);
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await page.evaluate(() => document.querySelector('dialog[open]')?.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${label}.png`), fullPage: true, animations: 'disabled' });
  }
  if (original) await page.setViewportSize(original);
}

async function walk(page: Page, modal: Locator, tab: string, steps: number, shot: string) {
  await expect.poll(() => modal.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
  for (let step = 1; step <= steps; step += 1) {
    await modal.getByText(`Step ${step} of ${steps}`).waitFor();
    await screenshots(page, `${shot}-step-${step}`);
    if (step < steps) await modal.getByRole('button', { name: 'Next Step' }).click();
  }
  expect(await modal.getByRole('button', { name: 'Next Step' }).count()).toBe(0);
  await modal.getByRole('button', { name: 'Share!' }).waitFor();
}

async function visitorCount(page: Page): Promise<number> {
  const metrics = page.getByRole('region', { name: 'Link Metrics' });
  const text = (await metrics.innerText()).replace(/\s+/g, ' ');
  const m = text.match(/Visitors\D*?(\d+)/i);
  if (!m) throw new Error(`no visitor count in: ${text}`);
  return Number(m[1]);
}

describe('sharing a new link', () => {
  it('Create opens the modal; each tab walks to Share!; templates switch; Download saves a PNG; a visitor is counted', async () => {
    // On a desktop: a give link of $2 for 3 people.
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await recordExits(context);
    const page = await context.newPage();
    await logIn(page, app, sasha);
    await page.goto(`${app.url}/share`);
    await page.getByRole('radio', { name: 'Give' }).check();
    await page.getByRole('radio', { name: 'Currency' }).check();
    await page.getByLabel('Amount').fill('2');
    await page.getByLabel('Quantity').fill('3');
    await page.getByRole('button', { name: 'Create' }).click();

    // The modal opens over 'Your link is ready', the link's address its first line.
    const modal = shareModal(page);
    await modal.waitFor();
    expect(await modal.getByLabel('Your link').inputValue()).toBe(`${app.url}/link/sasha`);
    await modal.getByRole('img', { name: 'Your share image, Standard style' }).waitFor();

    // Instagram: four steps; the link to copy carries its source; stories wait for a phone.
    await walk(page, modal, 'Instagram', 4, 'share-instagram');
    await modal.getByRole('button', { name: 'Back' }).click();
    await modal.getByRole('button', { name: 'Back' }).click();
    await modal.getByRole('button', { name: 'Copy link for Instagram' }).click();
    await modal.getByText('Link copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}/link/sasha?utm_source=instagram`);
    await modal.getByRole('button', { name: 'Next Step' }).click();
    await modal.getByRole('button', { name: 'Next Step' }).click();
    await modal.getByRole('button', { name: 'Share!' }).click();
    await modal.getByText('Cannot share stories on desktop, please continue on your phone.').waitFor();
    await screenshots(page, 'share-instagram-desktop-notice');

    // The carousel: a style by name, then the next one by arrow; each is the server's PNG.
    await modal.getByRole('radio', { name: 'Purple' }).check();
    await modal.getByRole('img', { name: 'Your share image, Purple style' }).waitFor();
    await modal.getByRole('button', { name: 'Next style' }).click();
    await modal.getByRole('img', { name: 'Your share image, Green style' }).waitFor();
    expect(await modal.getByRole('radio', { name: 'Green' }).isChecked()).toBe(true);
    await screenshots(page, 'share-template-green');

    // Download saves the story PNG and keeps it in the local image cache.
    const [download] = await Promise.all([page.waitForEvent('download'), modal.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('giftlink-link-sasha-green-gradient-story.png');
    const file = fs.readFileSync((await download.path())!);
    expect(file.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(file.readUInt32BE(16)).toBe(1080);
    expect(file.readUInt32BE(20)).toBe(1920);
    await expect
      .poll(async () => (await cachedShareImages(page)).find((r) => r.username === 'sasha')?.urls)
      .toEqual(['/links/sasha/image?template=green-gradient&format=story']);

    // Twitter/X by keyboard: the text types itself out, then Share! opens X's post intent.
    await modal.getByRole('tab', { name: 'Instagram' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await modal.getByRole('tab', { name: 'Twitter/X' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await modal.getByRole('img', { name: 'Your share image, Green style' }).waitFor();
    const typed = modal.locator('.share-typed__shown');
    expect(((await typed.textContent()) ?? '').length).toBeLessThan(TEXT.length);
    await expect.poll(() => typed.textContent(), { timeout: 15_000 }).toBe(`${TEXT} ${app.url}/link/sasha?utm_source=x`);
    await walk(page, modal, 'Twitter/X', 2, 'share-twitter');
    // Sharing is logged as a linkShare event with the link's details.
    const [logged] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/analytics/log-event') && r.postDataJSON()?.event_type === 'linkShare'),
      modal.getByRole('button', { name: 'Share!' }).click(),
    ]);
    expect(logged.postDataJSON().event_details).toMatchObject({
      giveorreceive: 'give',
      type: 'currency',
      initialQuantity: 3,
      totalCost: 6,
    });
    await expect.poll(async () => (await exits(page)).opened.length).toBe(1);
    const intent = new URL((await exits(page)).opened[0]);
    expect(intent.origin + intent.pathname).toBe('https://twitter.com/intent/tweet');
    expect(intent.searchParams.get('text')).toBe(TEXT);
    expect(intent.searchParams.get('url')).toBe(`${app.url}/link/sasha?utm_source=x`);

    // Messages: on a desktop Share! copies the message.
    await modal.getByRole('tab', { name: 'Twitter/X' }).focus();
    await page.keyboard.press('ArrowRight');
    await walk(page, modal, 'Messages', 2, 'share-messages');
    await modal.getByRole('button', { name: 'Share!' }).click();
    await modal.getByText('Link copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${TEXT} ${app.url}/link/sasha?utm_source=messages`);

    // Escape closes it; the page offers it again.
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Share your link' }).waitFor();

    // The owner's link page: no visitor yet.
    await page.goto(`${app.url}/link/sasha`);
    await page.getByRole('heading', { name: 'Link Metrics' }).waitFor();
    const before = await visitorCount(page);

    // A phone, signed out, opens the link from the share: the owner's visitor count rises.
    // (A phone's browser: headless Chromium says 'HeadlessChrome', which counts as a bot, not a visitor.)
    const visitor = await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true, userAgent: PHONE_UA });
    const v = await visitor.newPage();
    await v.goto(`${app.url}/link/sasha?utm_source=instagram`);
    await v
      .getByText(/giving \$2/)
      .first()
      .waitFor();
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Link Metrics' }).waitFor();
        return visitorCount(page);
      })
      .toBe(before + 1);
    await screenshots(page, 'share-owner-visitors');
    await visitor.close();
    await context.close();
  });

  it('on a phone, Share! hands the story to the share sheet and Messages opens an sms: link', async () => {
    const context = await browser.newContext({
      viewport: VIEWPORTS.phone,
      isMobile: true,
      hasTouch: true,
      userAgent: PHONE_UA,
      reducedMotion: 'reduce',
    });
    await recordExits(context, { shareSheet: true });
    const page = await context.newPage();
    await logIn(page, app, sasha);
    await page.goto(`${app.url}/link/sasha`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const modal = shareModal(page);
    await modal.getByRole('img', { name: 'Your share image, Standard style' }).waitFor();
    await walk(page, modal, 'Instagram', 4, 'share-phone-instagram');
    await modal.getByRole('button', { name: 'Share!' }).click();
    await expect
      .poll(async () => (await exits(page)).shared)
      .toEqual([{ name: 'giftlink-link-sasha-standard-story.png', type: 'image/png', size: expect.any(Number) }]);
    expect((await exits(page)).shared[0].size).toBeGreaterThan(1000);

    // Reduced motion: the text is there at once (with the tab's render, well before typing could finish).
    await modal.getByRole('tab', { name: 'Messages' }).click();
    await expect
      .poll(() => modal.locator('.share-typed__shown').textContent(), { timeout: 500, interval: 25 })
      .toBe(`${TEXT} ${app.url}/link/sasha?utm_source=messages`);
    await walk(page, modal, 'Messages', 2, 'share-phone-messages');
    await modal.getByRole('button', { name: 'Share!' }).click();
    await expect.poll(async () => (await exits(page)).sms.length).toBe(1);
    const sms = (await exits(page)).sms[0];
    expect(sms.startsWith('sms:?&body=')).toBe(true);
    expect(decodeURIComponent(sms.slice('sms:?&body='.length))).toBe(`${TEXT} ${app.url}/link/sasha?utm_source=messages`);

    // The wishlist has the same modal, with the wishlist's address.
    await page.keyboard.press('Escape');
    await page.goto(`${app.url}/wishlist/sasha`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    expect(await shareModal(page).getByLabel('Your wishlist').inputValue()).toBe(`${app.url}/wishlist/sasha`);
    await shareModal(page).getByRole('img', { name: 'Your share image, Standard style' }).waitFor();
    await screenshots(page, 'share-wishlist');

    // An image that cannot be made says so, and can be tried again.
    const failing = /\/wishlists\/sasha\/image\?template=blue-gradient/;
    // The routed 500 below is logged by Chromium as a failed resource.
    allowConsoleError(/Failed to load resource: the server responded with a status of 500 \(Internal Server Error\)/);
    await page.route(failing, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"server_error"}' }));
    await shareModal(page).getByRole('radio', { name: 'Blue' }).check();
    await shareModal(page).getByText('The image could not be made.').waitFor({ timeout: 15_000 });
    expect(await shareModal(page).getByRole('button', { name: 'Download' }).isDisabled()).toBe(true);
    await screenshots(page, 'share-image-error');
    await page.unroute(failing);
    await shareModal(page).getByRole('button', { name: 'Try again' }).click();
    await shareModal(page).getByRole('img', { name: 'Your share image, Blue style' }).waitFor();
    await context.close();
  });
});

describe('the share modal on a phone', () => {
  it('shows the preview and Download of its first step without scrolling, at 390×844', async () => {
    const owner = await freshAccount(app, sasha, 'sharer');
    await app.call(owner, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
    const page = await openAs(browser, app, owner, { viewport: VIEWPORTS.phone });
    await page.goto(`${app.url}/link/${owner.username}`);
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
    await viewportShot(page, 'share-step-1');
    await page.setViewportSize(VIEWPORTS.desktop);
    await viewportShot(page, 'share-step-1');
    await page.context().close();
  });
});
