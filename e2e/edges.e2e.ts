import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, registerViaApi, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let ben: ApiAccount;
let cal: ApiAccount;

/** Catalogue items: a fixed-shipping camera, a coffee maker with calculated shipping, a book with a long title. */
const CAMERA = 'v1|GL765785|0';
const COFFEE = 'v1|GL231995|0';
const BOOK = 'v1|GL453835|0';

/** `owner`'s wishlist of the three items, the camera bought by Ben. */
async function wishlistWithCameraBought(owner: ApiAccount, username: string): Promise<void> {
  const saved = await app.call<{ userWishlist: { items: { _id: string; itemId: string }[] } }>(owner, 'PUT', '/wishlists/update', {
    username,
    items: [{ itemId: CAMERA }, { itemId: COFFEE }, { itemId: BOOK }],
  });
  const camera = saved.userWishlist.items.find((i) => i.itemId === CAMERA)!;
  await app.call(ben, 'POST', '/wishlists/purchase', { wishlistUsername: username, itemId: camera._id });
}

// A story that changes what it starts from gets a fresh owner on each attempt, so a retry starts clean.
let attempts = 0;

beforeAll(async () => {
  [app, browser, ada, ben, cal] = await startStories(['ada', 'ben', 'cal']);
  // Ada's wishlist; Ben buys her the camera and gives $5 to her receive link.
  await app.call(ben, 'POST', '/api/billing-settings-deposit', { balance: 5000 });
  await wishlistWithCameraBought(ada, 'ada');
  const link = await app.call<{ id: string }>(ada, 'POST', '/links/create', {
    details: { giveorreceive: 'receive', type: 'currency', amount: 10 },
  });
  await app.call(ben, 'POST', '/statuses/api/gives', { postId: link.id, amount: 5 });
});
afterAll(() => stopStories(app, browser));

const DESKTOP = { width: 1280, height: 800 };
const as = (account: ApiAccount, viewport?: { width: number; height: number }) => openAs(browser, app, account, { viewport });

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

describe('rough edges, fixed', () => {
  it("the owner moves a purchased item to 'Received', which frees a spot on the list", async () => {
    attempts += 1;
    const name = `dee${attempts}`;
    const dee = await registerViaApi(app, ben.inviteCodes[attempts - 1], name);
    await wishlistWithCameraBought(dee, name);
    const a = await as(dee, DESKTOP);
    await a.goto(`${app.url}/wishlist/${name}`);
    await a.getByText('3 of 7 items · 1 purchased').waitFor();
    await screenshots(a, 'edges-wishlist-purchased');

    // The purchased item's modal offers the move too.
    await itemRow(a, 'Wishlist items', /Halcyra Retro/)
      .getByRole('button', { name: /Halcyra Retro/ })
      .click();
    const dialog = a.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Move to Received' }).waitFor();
    // 'Purchased on …' shows in full without scrolling the modal (it was cut off at the bottom).
    await expectInModal(dialog, /^Purchased/);
    await screenshots(a, 'edges-item-owner');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await itemRow(a, 'Wishlist items', /Halcyra Retro/)
      .getByRole('button', { name: 'Move to Received' })
      .click();
    await a.getByRole('heading', { name: 'Received' }).waitFor();
    await itemRow(a, 'Received items', /Halcyra Retro/).waitFor();
    await a.getByText('2 of 7 items · 1 received').waitFor();
    await expect.poll(() => itemRow(a, 'Wishlist items', /Halcyra Retro/).count()).toBe(0);
    await screenshots(a, 'edges-wishlist-received');

    // Still there after a reload; a visitor sees the list only.
    await a.reload();
    await itemRow(a, 'Received items', /Halcyra Retro/).waitFor();
    const b = await as(ben, DESKTOP);
    await b.goto(`${app.url}/wishlist/${name}`);
    await b.getByText('2 of 7 items').waitFor();
    await expect.poll(() => b.getByRole('heading', { name: 'Received' }).count()).toBe(0);
    await expect.poll(() => b.getByText('Halcyra Retro').count()).toBe(0);
  });

  it('shows every message of the item modal in full, on a desktop and a phone', async () => {
    // Cal has no money: the modal offers the card for the rest, under the calculated-shipping note.
    const c = await as(cal, DESKTOP);
    await c.goto(`${app.url}/wishlist/ada`);
    await itemRow(c, 'Wishlist items', /Coffee Maker/)
      .getByRole('button', { name: /Coffee Maker/ })
      .click();
    const dialog = c.getByRole('dialog');
    await dialog.getByLabel('Card number').waitFor();
    // Why the card, and the balance, show without scrolling the modal, on a desktop and a phone.
    for (const size of [DESKTOP, { width: 390, height: 844 }]) {
      await c.setViewportSize(size);
      await expectInModal(dialog, /Your balance: \$0\.00\. Pay the rest by card below\./);
    }
    await screenshots(c, 'edges-item-short');
  });

  it("the giver's inbox reads 'You gave $5.00'; the recipient's 'You received a gift of $5.00!'", async () => {
    const b = await as(ben, DESKTOP);
    await b.goto(`${app.url}/conversations`);
    await b.getByText('You gave $5.00').first().waitFor();
    expect(await b.getByText(/You: You received/).count()).toBe(0);
    expect(await b.getByText(/You received a gift/).count()).toBe(0);
    await screenshots(b, 'edges-inbox-giver');
    // In the thread too: both of Ben's anonymous gifts to Ada, as their giver reads them.
    await b.getByText('You gave $5.00').first().click();
    await b.waitForURL(/\/messages\//);
    await b.getByText('You gave $5.00').first().waitFor();
    await b.getByText('Halcyra Retro Instant Print Camera, Blush Pink').first().waitFor();
    expect(await b.getByText(/You received a gift/).count()).toBe(0);
    await screenshots(b, 'edges-thread-giver');

    const a = await as(ada, DESKTOP);
    await a.goto(`${app.url}/conversations`);
    await a.getByText('You received a gift of $5.00!').first().waitFor();
    expect(await a.getByText(/You gave/).count()).toBe(0);
    await screenshots(a, 'edges-inbox-recipient');
  });

  it('counts the characters of a settings field, and refuses past 40 instead of cutting', async () => {
    const a = await as(ada, DESKTOP);
    await a.goto(`${app.url}/profile/ada/settings`);
    await a.getByRole('button', { name: /^Bio/ }).click();
    const bio = a.getByLabel('Bio', { exact: true });
    await bio.fill('Hello, world');
    await a.getByText('12/40').waitFor();
    await a.evaluate(() => window.scrollTo(0, 0));
    await screenshots(a, 'edges-settings-counter');

    await bio.fill('x'.repeat(45));
    expect(await bio.inputValue()).toHaveLength(45);
    await a.getByText('45/40').waitFor();
    await a.getByText('5 characters too many').waitFor();
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await a.getByText('Bio must be at most 40 characters.').waitFor();
    await a.evaluate(() => window.scrollTo(0, 0));
    await screenshots(a, 'edges-settings-over');

    await bio.fill('Loves gifts');
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await a.getByText('Changes saved.').waitFor();
  });
});
