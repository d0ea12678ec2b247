import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, registerViaApi, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

let app: RunningApp;
let browser: Browser;
let inviter: ApiAccount;
let made = 0;

/** A new account for this attempt (a retried story starts from fresh people), invited by the last one made. */
async function fresh(name: string): Promise<ApiAccount> {
  made += 1;
  const account = await registerViaApi(app, inviter.inviteCodes.shift()!, `${name}${made}`);
  inviter = account;
  return account;
}

beforeAll(async () => {
  [app, browser, inviter] = await startStories(['host']);
});
afterAll(() => stopStories(app, browser));

describe('a note with the gift', () => {
  it('accepting a give link on a phone with a note: the link’s creator reads it right after the gift', async () => {
    const gia = await fresh('gia');
    const noa = await fresh('noa');
    await app.call(gia, 'POST', '/api/billing-settings-deposit', { balance: 10 });
    await app.call(gia, 'POST', '/links/create', { details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1 } });

    const n = await openAs(browser, app, noa);
    await n.goto(`${app.url}/link/${gia.username}`);
    const note = n.getByLabel('Add a note (optional)');
    await note.fill('Thank you, Gia! Coffee is on me next time.');
    await n.getByText('42/2000').waitFor();
    await screenshots(n, 'gift-note-accept');
    await n.getByRole('button', { name: 'Accept' }).click();
    await n.getByRole('status').getByText('You received a gift of $5.00!').waitFor();
    await n.getByRole('link', { name: 'Open conversation' }).click();
    await n.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    await n.getByText('Thank you, Gia! Coffee is on me next time.').waitFor();

    const g = await openAs(browser, app, gia);
    await g.goto(n.url());
    // The gift (the creator gave it: 'You gave $5.00'), then the note under it, from the responder by name.
    const thread = g.getByRole('list', { name: /^Conversation with / }).getByRole('listitem');
    await thread.getByText('Thank you, Gia! Coffee is on me next time.').waitFor();
    const texts = (await thread.allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts.findIndex((t) => t.includes('You gave $5.00'))).toBeGreaterThanOrEqual(0);
    expect(texts.findIndex((t) => t.includes('Thank you, Gia!'))).toBe(texts.findIndex((t) => t.includes('You gave $5.00')) + 1);
    await screenshots(g, 'gift-note-thread');
  });

  it('buying a wishlist item on a phone with a note: the owner reads it from Anonymous', async () => {
    const gia = await fresh('gia');
    const noa = await fresh('noa');
    const [product] = await app.call<{ itemId: string; price: number }[]>(noa, 'GET', '/api/products/search?q=mug');
    await app.call(gia, 'PUT', '/wishlists/update', { username: gia.username, items: [{ itemId: product.itemId }] });
    await app.call(noa, 'POST', '/api/billing-settings-deposit', { balance: 900 });

    const n = await openAs(browser, app, noa);
    await n.goto(`${app.url}/wishlist/${gia.username}`);
    await n.getByRole('list', { name: 'Wishlist items' }).getByRole('button').first().click();
    const dialog = n.getByRole('dialog');
    await dialog.getByLabel('Add a note (optional)').fill('Happy birthday from a secret admirer');
    await screenshots(n, 'gift-note-wishlist');
    await dialog.getByRole('button', { name: 'Purchase' }).click();
    await n
      .getByRole('dialog', { name: /Are you sure you want to buy/ })
      .getByRole('button', { name: 'Yes' })
      .click();
    await n.waitForURL(/\/messages\/[0-9a-f-]{36}$/);
    await n.getByText('Happy birthday from a secret admirer').waitFor();

    const g = await openAs(browser, app, gia);
    await g.goto(n.url());
    await g.getByText('Happy birthday from a secret admirer').waitFor();
    await g.getByText('Anonymous').first().waitFor();
    expect(await g.getByText(noa.username).count()).toBe(0);
    await screenshots(g, 'gift-note-wishlist-thread');
  });
});
