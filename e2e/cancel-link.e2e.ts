import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceShows,
  createGiveLink,
  deposit,
  openAs,
  screenshots,
  startStories,
  stopStories,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let ben: ApiAccount;

beforeAll(async () => {
  [app, browser, ada, ben] = await startStories(['ada', 'ben']);
});
afterAll(() => stopStories(app, browser));

describe('taking a give link back', () => {
  it('the owner cancels an open give link after confirming; the money is back and visitors see it gone', async () => {
    const a = await openAs(browser, app, ada, { viewport: { width: 1280, height: 800 } });
    await deposit(a, '20');
    await balanceShows(a, '$20.00');
    await createGiveLink(a, app, '5', '2');
    await balanceShows(a, '$10.00');

    await a.goto(`${app.url}/link/ada`);
    await a.getByRole('button', { name: 'Cancel link' }).click();
    const dialog = a.getByRole('dialog', { name: 'Cancel this link?' });
    await dialog.waitFor();
    // The safe choice has the focus; Escape keeps the link.
    await expect.poll(() => a.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await screenshots(a, 'cancel-link-confirm');
    await a.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await balanceShows(a, '$10.00');

    await a.getByRole('button', { name: 'Cancel link' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await a.getByRole('heading', { name: 'Link cancelled' }).waitFor();
    await balanceShows(a, '$20.00');
    await screenshots(a, 'cancel-link-done');

    // The owner's page still says so after a reload.
    await a.reload();
    await a.getByRole('heading', { name: 'Link cancelled' }).waitFor();
    expect(await a.getByRole('button', { name: 'Cancel link' }).count()).toBe(0);

    const b = await openAs(browser, app, ben);
    await b.goto(`${app.url}/link/ada`);
    await b.getByText('Link is no longer available.').first().waitFor();
    await screenshots(b, 'cancel-link-visitor');
  });
});
