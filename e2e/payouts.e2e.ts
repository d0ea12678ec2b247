import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceButton,
  balanceShows,
  openAs,
  screenshots,
  startStories,
  stopStories,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let mia: ApiAccount;

beforeAll(async () => {
  [app, browser, mia] = await startStories(['mia']);
  await app.call(mia, 'POST', '/api/billing-settings-deposit', { balance: 20 });
}, 120_000);
afterAll(() => stopStories(app, browser));

describe('payouts, set up once in the sandbox', () => {
  it('on a phone: withdraw waits for payouts, the test bank form sets them up, then the money goes out', async () => {
    const page = await openAs(browser, app, mia);
    await balanceShows(page, '$20.00');

    // The balance dialog says withdrawals need payouts and leads to Settings → Payouts.
    await balanceButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Your balance' });
    await dialog.getByText('Withdrawals go to your bank account: set up payouts first.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Withdraw' }).isDisabled()).toBe(true);
    await screenshots(page, 'payouts-withdraw-waits');
    await dialog.getByRole('link', { name: 'Settings → Payouts' }).click();

    const section = page.getByRole('region', { name: 'Payouts' });
    await section.getByText('Payouts are not set up yet.').waitFor();
    await screenshots(page, 'payouts-not-started');
    await section.getByRole('button', { name: 'Set up payouts' }).click();

    // The sandbox's onboarding: Stripe's test bank numbers, typed from the keyboard.
    await page.waitForURL(`${app.url}/settings/payouts/sandbox`);
    const account = page.getByLabel('Account number');
    await account.waitFor();
    await account.fill('12');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('Enter a 9-digit routing number and an account number of 4 to 17 digits.').waitFor();
    await account.fill('000123456789');
    await screenshots(page, 'payouts-sandbox-bank');
    await page.getByRole('button', { name: 'Save bank account' }).click();

    await page.waitForURL(/\/settings#payouts$/);
    await section.getByText('Ready: withdrawals go to your bank account ending 6789.').waitFor();
    await screenshots(page, 'payouts-ready');

    await balanceButton(page).click();
    await dialog.getByLabel('Amount').fill('5');
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await dialog.getByText('Withdrew $5.00. Your balance is now $15.00.').waitFor();
    await dialog.getByRole('link', { name: 'See your money history' }).click();
    await page.getByText('To bank account ending 6789 · sent').waitFor();
    await screenshots(page, 'payouts-history');
    await page.context().close();
  });

  it('on a desktop: Change bank account opens the test bank form, and Settings shows the new bank', async () => {
    // The story above left Mia's payouts ready with the bank ending 6789; set so again, on its own.
    await app.call(mia, 'POST', '/api/payouts/sandbox/complete', { routingNumber: '110000000', accountNumber: '000123456789' });
    const page = await openAs(browser, app, mia, { viewport: VIEWPORTS.desktop });
    await page.goto(`${app.url}/profile/${mia.username}/settings#payouts`);
    const section = page.getByRole('region', { name: 'Payouts' });
    await section.getByText('Ready: withdrawals go to your bank account ending 6789.').waitFor();
    expect(await section.getByRole('button', { name: 'Set up payouts' }).count()).toBe(0);
    await screenshots(page, 'payouts-change-bank-offered');
    await section.getByRole('button', { name: 'Change bank account' }).click();

    await page.waitForURL(`${app.url}/settings/payouts/sandbox?change=bank`);
    await page.getByRole('heading', { name: 'Change your test bank account' }).waitFor();
    const account = page.getByLabel('Account number');
    await account.fill('000999999999');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByRole('alert').getByText('This is test mode: use routing number 110000000 and account number 000123456789.').waitFor();
    // Stripe's test account whose payouts fail is a bank like any other here.
    await account.fill('000111111116');
    await screenshots(page, 'payouts-change-bank-form');
    await page.getByRole('button', { name: 'Save bank account' }).click();

    await page.waitForURL(/\/settings#payouts$/);
    await section.getByText('Ready: withdrawals go to your bank account ending 1116.').waitFor();
    await section.getByRole('button', { name: 'Change bank account' }).waitFor();
    await screenshots(page, 'payouts-bank-changed');
    await page.context().close();
  });
});
