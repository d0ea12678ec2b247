/// <reference lib="dom" />
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAccount, openAs, screenshots, startStories, stopStories, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;
let friend: ApiAccount;

beforeAll(async () => {
  [app, browser, owner, friend] = await startStories(['wanda', 'fred'], { INVITES_PER_USER: '8' });
});
afterAll(() => stopStories(app, browser));

const as = (account: ApiAccount, viewport?: { width: number; height: number }) => openAs(browser, app, account, { viewport });

/** What IndexedDB 'ImageDB' holds in the wishlistImages store. */
const cachedWishlistImages = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('ImageDB');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const stores = [...db.objectStoreNames];
    const all = stores.includes('wishlistImages')
      ? await new Promise<{ username: string; images: { url: string; blob: Blob }[] }[]>((resolve) => {
          const r = db.transaction('wishlistImages').objectStore('wishlistImages').getAll();
          r.onsuccess = () => resolve(r.result);
        })
      : [];
    db.close();
    return {
      version: db.version,
      stores,
      records: all.map((x) => ({ username: x.username, count: x.images.length, bytes: x.images.map((i) => i.blob.size) })),
    };
  });

describe('a wishlist from the catalogue, bought by a friend', () => {
  it('the owner adds three items, a friend buys one, both see it purchased; the image cache follows the session', async () => {
    const o = await as(owner, { width: 1280, height: 800 });
    await o.goto(`${app.url}/wishlist/wanda`);
    for (const q of ['mug', 'book', 'headphones']) {
      const search = o.getByRole('searchbox', { name: 'Search for an item' });
      await search.fill(q);
      await o.getByRole('button', { name: 'Search', exact: true }).click();
      await o
        .getByRole('button', { name: /^Send Now/ })
        .first()
        .click();
      await o.getByText('All changes saved').waitFor();
    }
    const rows = o.getByRole('list', { name: 'Wishlist items' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(3);
    await o.reload();
    await expect.poll(() => rows.count()).toBe(3);
    await screenshots(o, 'wishlist-owner');

    // The friend buys the first item after confirming, and lands in the conversation.
    const f = await as(friend);
    await f.getByRole('button', { name: /^Balance \$/ }).click();
    const wallet = f.getByRole('dialog', { name: 'Your balance' });
    await wallet.getByLabel('Amount').fill('900');
    await wallet.getByRole('button', { name: 'Deposit' }).click();
    await wallet.getByText(/Deposited \$/).waitFor();
    await wallet.getByRole('button', { name: 'Close' }).first().click();
    await f.goto(`${app.url}/wishlist/wanda`);
    await f.getByRole('list', { name: 'Wishlist items' }).getByRole('button').first().click();
    await f.getByRole('button', { name: 'Purchase' }).click();
    await screenshots(f, 'wishlist-confirm');
    await f
      .getByRole('dialog', { name: /Are you sure you want to buy/ })
      .getByRole('button', { name: 'Yes' })
      .click();
    await f.waitForURL(/\/messages\/[0-9a-f-]{36}$/);

    // The owner sees it purchased, with the date, and can no longer remove it.
    await o.reload();
    await o.getByText('Purchased', { exact: true }).first().waitFor();
    const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    await o
      .getByText(new RegExp(`on ${today}`))
      .first()
      .waitFor();
    expect(await o.getByRole('button', { name: /^Remove / }).count()).toBe(2);
    await screenshots(o, 'wishlist-purchased');

    // The cache: the owner's wishlist images after a fresh login, nothing after logout.
    const fresh = await as(owner);
    await expect
      .poll(async () => (await cachedWishlistImages(fresh)).records.find((r) => r.username === 'wanda')?.count ?? 0, { timeout: 15_000 })
      .toBe(3);
    const cached = await cachedWishlistImages(fresh);
    expect(cached.version).toBe(2);
    expect(cached.stores.sort()).toEqual(['shareImages', 'wishlistImages']);
    expect(cached.records[0].bytes.every((b) => b > 1000)).toBe(true);
    await fresh.goto(`${app.url}/profile/wanda/settings`);
    await fresh.getByRole('button', { name: 'Logout' }).click();
    await fresh.waitForURL(`${app.url}/login`);
    await expect.poll(async () => (await cachedWishlistImages(fresh)).records.length).toBe(0);
  });
});

/** Catalogue items: a fixed-shipping camera, a coffee maker with calculated shipping, a book with a long title. */
const CAMERA = 'v1|GL765785|0';
const COFFEE = 'v1|GL231995|0';
const BOOK = 'v1|GL453835|0';

/** `who`'s wishlist of the three items, the camera bought by Fred. */
async function wishlistWithCameraBought(who: ApiAccount): Promise<void> {
  const saved = await app.call<{ userWishlist: { items: { _id: string; itemId: string }[] } }>(who, 'PUT', '/wishlists/update', {
    username: who.username,
    items: [{ itemId: CAMERA }, { itemId: COFFEE }, { itemId: BOOK }],
  });
  const camera = saved.userWishlist.items.find((i) => i.itemId === CAMERA)!;
  await app.call(friend, 'POST', '/api/billing-settings-deposit', { balance: 200 });
  await app.call(friend, 'POST', '/wishlists/purchase', { wishlistUsername: who.username, itemId: camera._id });
}

/** `text` shows whole inside the modal's box, without scrolling it (the dialog element itself is the whole-screen backdrop). */
async function expectInModal(dialog: Locator, text: RegExp): Promise<void> {
  const frame = (await dialog.locator('.dialog').boundingBox())!;
  const box = await dialog.getByText(text).first().boundingBox();
  expect(box, String(text)).not.toBeNull();
  expect(box!.y, String(text)).toBeGreaterThanOrEqual(frame.y);
  expect(box!.y + box!.height, String(text)).toBeLessThanOrEqual(frame.y + frame.height);
}

const itemRow = (page: Page, list: string, title: RegExp) =>
  page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: title });

describe('a wishlist with an item bought', () => {
  it("the owner moves a purchased item to 'Received', which frees a spot on the list", async () => {
    const dee = await freshAccount(app, owner, 'dee');
    const name = dee.username;
    await wishlistWithCameraBought(dee);
    const a = await as(dee, VIEWPORTS.desktop);
    await a.goto(`${app.url}/wishlist/${name}`);
    await a.getByText('3 of 7 items · 1 purchased').waitFor();
    await screenshots(a, 'wishlist-purchased');

    // The purchased item's modal offers the move too.
    await itemRow(a, 'Wishlist items', /Halcyra Retro/)
      .getByRole('button', { name: /Halcyra Retro/ })
      .click();
    const dialog = a.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Move to Received' }).waitFor();
    // 'Purchased on …' shows in full without scrolling the modal (it was cut off at the bottom).
    await expectInModal(dialog, /^Purchased/);
    await screenshots(a, 'wishlist-item-owner');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await itemRow(a, 'Wishlist items', /Halcyra Retro/)
      .getByRole('button', { name: 'Move to Received' })
      .click();
    await a.getByRole('heading', { name: 'Received' }).waitFor();
    await itemRow(a, 'Received items', /Halcyra Retro/).waitFor();
    await a.getByText('2 of 7 items · 1 received').waitFor();
    await expect.poll(() => itemRow(a, 'Wishlist items', /Halcyra Retro/).count()).toBe(0);
    await screenshots(a, 'wishlist-received');

    // Still there after a reload; a visitor sees the list only.
    await a.reload();
    await itemRow(a, 'Received items', /Halcyra Retro/).waitFor();
    const b = await as(friend, VIEWPORTS.desktop);
    await b.goto(`${app.url}/wishlist/${name}`);
    await b.getByText('2 of 7 items').waitFor();
    await expect.poll(() => b.getByRole('heading', { name: 'Received' }).count()).toBe(0);
    await expect.poll(() => b.getByText('Halcyra Retro').count()).toBe(0);
  });

  it('shows every message of the item modal in full, on a desktop and a phone', async () => {
    // A visitor with no money: the modal offers the card for the rest, under the calculated-shipping note.
    const lister = await freshAccount(app, owner, 'lister');
    await app.call(lister, 'PUT', '/wishlists/update', {
      username: lister.username,
      items: [{ itemId: CAMERA }, { itemId: COFFEE }, { itemId: BOOK }],
    });
    const cal = await freshAccount(app, owner, 'cal');
    const c = await as(cal, VIEWPORTS.desktop);
    await c.goto(`${app.url}/wishlist/${lister.username}`);
    await itemRow(c, 'Wishlist items', /Coffee Maker/)
      .getByRole('button', { name: /Coffee Maker/ })
      .click();
    const dialog = c.getByRole('dialog');
    await dialog.getByLabel('Card number').waitFor();
    // Why the card, and the balance, show without scrolling the modal, on a desktop and a phone.
    for (const size of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      await c.setViewportSize(size);
      await expectInModal(dialog, /Your balance: \$0\.00\. Pay the rest by card below\./);
    }
    await screenshots(c, 'wishlist-item-short');
  });
});
