import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountExport } from '../api/contract/account.js';
import {
  openAs,
  freshAccount,
  giveAnonymously,
  screenshots,
  SHOTS_DIR,
  startStories,
  stopStories,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let june: ApiAccount;
let kai: ApiAccount;

beforeAll(async () => {
  [app, browser, june, kai] = await startStories(['june', 'kai']);
  // Kai gives to June's receive link anonymously: June has $4.00 and an anonymous thread.
  await giveAnonymously(app, kai, june, 4);
}, 120_000);

afterAll(() => stopStories(app, browser));

/** A modal dialog as a person sees it (the viewport, not the full page), on a phone and on a desktop. */
async function dialogShots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${label}.png`), animations: 'disabled' });
  }
  await page.setViewportSize(VIEWPORTS.phone);
}

async function openSettings(page: Page, who: ApiAccount): Promise<void> {
  await page.goto(`${app.url}/profile/${who.username}/settings#data`);
  await page.getByRole('heading', { name: 'Your data' }).waitFor();
}

describe('data export and account deletion', () => {
  it('downloads my data as a JSON file that keeps the giver anonymous', async () => {
    const page = await openAs(browser, app, june);
    await openSettings(page, june);
    await page.getByRole('heading', { name: 'Your data' }).scrollIntoViewIfNeeded();
    await screenshots(page, 'account-settings');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^giftlink-data-june-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as AccountExport;
    expect(data.profile).toMatchObject({ username: 'june', email: june.email, balance: 4 });
    expect(data.links).toHaveLength(1);
    expect(data.moneyHistory[0]).toMatchObject({ kind: 'gift_received', anonymous: true });
    expect(data.conversations[0].conversation.otherUser).toMatchObject({ username: 'Anonymous', anonymous: true });
    const text = JSON.stringify(data);
    for (const secret of [kai.userId, kai.username, kai.email]) expect(text).not.toContain(secret);
    await page.context().close();
  });

  it('refuses to delete while money is held, then deletes after a withdrawal and says goodbye', async () => {
    // A fresh account on each attempt: the story ends it.
    const leaving = await freshAccount(app, june, 'leaving');
    await giveAnonymously(app, kai, leaving, 4);
    await app.call(leaving, 'POST', '/api/payouts/sandbox/complete', { routingNumber: '110000000', accountNumber: '000123456789' });
    const page = await openAs(browser, app, leaving);
    await openSettings(page, leaving);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete my account' });
    await dialog.getByLabel('Password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('That password is not correct.').waitFor();
    await dialog.getByLabel('Password').fill(leaving.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Withdraw your balance of $4.00 first (Balance → Withdraw).').waitFor();
    await dialogShots(page, 'account-delete-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Balance → Withdraw, as the message says.
    await page
      .getByRole('button', { name: /^Balance \$/ })
      .first()
      .click();
    const balance = page.getByRole('dialog', { name: 'Your balance' });
    await balance.getByLabel('Amount').fill('4');
    await balance.getByRole('button', { name: 'Withdraw' }).click();
    await page
      .getByRole('button', { name: /^Balance \$0/ })
      .first()
      .waitFor();
    if (await balance.isVisible()) await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByLabel('Password').fill(leaving.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${app.url}/goodbye`);
    await page.getByRole('heading', { name: 'Your account is deleted' }).waitFor();
    await screenshots(page, 'account-goodbye');

    // Signed out, and the old password no longer signs in.
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect([204, 401]).toContain(me); // 204: no session cookie any more; 401: one that no longer holds
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: leaving.email, password: leaving.password }),
    });
    expect(login.status).toBe(400);
    await page.context().close();
  });
});
