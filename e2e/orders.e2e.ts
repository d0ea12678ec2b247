/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let rita: ApiAccount;
let gabe: ApiAccount;

beforeAll(async () => {
  [app, browser, rita, gabe] = await startStories(['rita', 'gabe']);
});
afterAll(() => stopStories(app, browser));

describe('an item gift reaches its recipient', () => {
  it("the recipient is asked for an address, adds it in Settings and sees the order placed; the giver sees only its status, 'Processing' while it waits", async () => {
    // Setup: Rita wishes for a mug; Gabe buys it for her (anonymously).
    const [product] = await app.call<{ itemId: string; title: string }[]>(rita, 'GET', '/api/products/search?q=mug');
    const saved = await app.call<{ userWishlist: { items: { _id: string }[] } }>(rita, 'PUT', '/wishlists/update', {
      username: 'rita',
      items: [{ itemId: product.itemId }],
    });
    await app.call(gabe, 'POST', '/api/billing-settings-deposit', { balance: 500 });
    await app.call(gabe, 'POST', '/wishlists/purchase', {
      wishlistUsername: 'rita',
      purchaserUserId: gabe.userId,
      itemId: saved.userWishlist.items[0]._id,
      lastMessage: '',
    });

    // Gabe is not told that Rita has no address yet: the order is only 'Processing'.
    const g = await openAs(browser, app, gabe);
    await g.goto(`${app.url}/orders`);
    const sent = g.getByRole('list', { name: 'Sent orders' });
    await sent.getByText('Processing', { exact: true }).waitFor();
    const sentText = ((await sent.textContent()) ?? '').toLowerCase();
    for (const hint of ['address', 'waiting', 'by ']) expect(sentText).not.toContain(hint);
    await shots(g, 'orders-sent-processing');

    // Rita is asked for her address, by Giftlink, in her notifications.
    const r = await openAs(browser, app, rita);
    await r.goto(`${app.url}/notifications`);
    const ask = r.getByRole('link', { name: new RegExp(`Add your shipping address so we can send you ${escape(product.title)}`) });
    await ask.waitFor();
    await expect.poll(() => ask.textContent()).toContain('Giftlink');
    await shots(r, 'notifications-address-ask');

    // Her orders page says the gift waits for an address.
    await r.goto(`${app.url}/orders`);
    await r.getByRole('heading', { name: 'Add your shipping address' }).waitFor();
    const received = r.getByRole('list', { name: 'Received orders' });
    await received.getByText('Waiting for your address').waitFor();
    await shots(r, 'orders-waiting');

    // The ask leads to the address form in Settings.
    await r.goto(`${app.url}/notifications`);
    await ask.click();
    await r.waitForURL(`${app.url}/profile/rita/settings#address`);
    const form = r.getByRole('form', { name: 'Shipping address' });
    await form.waitFor();
    await expect
      .poll(() =>
        r
          .getByRole('heading', { name: 'Shipping address' })
          .boundingBox()
          .then((b) => b?.y ?? -1),
      )
      .toBeGreaterThan(50);
    await shots(r, 'address-form');

    // A postal code that does not fit the country is refused with a clear text.
    await form.getByLabel('Full name').fill('Rita Example');
    await form.getByLabel('Address', { exact: true }).fill('12 Harbour Street');
    await form.getByLabel('City').fill('Portland');
    await form.getByLabel('State / region').fill('OR');
    await form.getByLabel('Country').selectOption('US');
    await form.getByLabel('Postal code').fill('ABC');
    await form.getByRole('button', { name: 'Save address' }).click();
    await r.getByRole('alert').getByText('That postal code does not look right for United States.').waitFor();

    await form.getByLabel('Postal code').fill('97201');
    await form.getByRole('button', { name: 'Save address' }).click();
    await r.getByRole('status').getByText('Address saved. Your waiting gift is on the way.').waitFor();
    await r.getByText('12 Harbour Street').waitFor();
    await shots(r, 'address-saved');

    // The order is placed.
    await r.getByRole('link', { name: 'Your orders' }).click();
    await r.waitForURL(`${app.url}/orders`);
    await received.getByText(product.title).waitFor();
    await received.getByText('Ordered', { exact: true }).waitFor();
    await expect(r.getByRole('heading', { name: 'Add your shipping address' }).count()).resolves.toBe(0);
    await shots(r, 'orders-placed');

    // Gabe sees the status of what he sent, never where it goes.
    await g.reload();
    await sent.getByText('Ordered', { exact: true }).waitFor();
    const text = (await g.locator('body').textContent()) ?? '';
    for (const part of ['Harbour', 'Portland', '97201', 'Rita Example']) expect(text).not.toContain(part);
    await shots(g, 'orders-sent');
  });
});

/** Full-page shots from the top, so the sticky top bar sits where it belongs. */
async function shots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshots(page, name);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
