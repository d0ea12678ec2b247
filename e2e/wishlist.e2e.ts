/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;
let friend: ApiAccount;

beforeAll(async () => {
  [app, browser, owner, friend] = await startStories(['wanda', 'fred']);
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
