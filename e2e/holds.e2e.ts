import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { AVAILABLE, GIFT_RETURNED, RETURN_GIFT, RETURN_GIFT_CONFIRM } from '../api/contract/texts.js';
import {
  VIEWPORTS,
  balanceButton,
  balanceShows,
  openAs,
  screenshots,
  startStories,
  stopStories,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let bob: ApiAccount;
let conversationId: string;

beforeAll(async () => {
  // Money waits a day before it can leave.
  [app, browser, ana, bob] = await startStories(['ana', 'bob'], { FUNDS_HOLD_HOURS: '24' });
  // Bob gives $5 to Ana's receive link, anonymously.
  const link = await app.request(ana, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } });
  await app.request(bob, 'POST', '/api/billing-settings-deposit', { balance: 5 });
  const give = await app.request(bob, 'POST', '/statuses/api/gives', { postId: link.body.id, amount: 5 });
  if (give.status !== 201) throw new Error(`give failed: ${JSON.stringify(give.body)}`);
  conversationId = give.body.conversationId as string;
  // Ana's payouts are set up: what stops her withdrawal is the hold alone.
  const bank = await app.request(ana, 'POST', '/api/payouts/sandbox/complete', {
    routingNumber: '110000000',
    accountNumber: '000123456789',
  });
  if (bank.status !== 200) throw new Error(`payouts failed: ${JSON.stringify(bank.body)}`);
});
afterAll(() => stopStories(app, browser));

describe('money on hold, and a gift sent back', () => {
  it('shows what is available and what is on hold, refuses a withdrawal of held money, and returns the gift from its thread', async () => {
    const page = await openAs(browser, app, ana, { viewport: VIEWPORTS.desktop });
    await balanceButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Your balance' });
    await dialog.getByText(`${AVAILABLE}:`).waitFor();
    await dialog.getByText(/\$5\.00 on hold until .* UTC/).waitFor();
    await screenshots(page, 'balance-on-hold');
    await dialog.getByLabel('Amount').fill('5');
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await dialog.getByText(/^Only \$0\.00 can be withdrawn now: the rest is on hold until .* UTC\.$/).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.goto(`${app.url}/messages/${conversationId}`);
    const giveBack = page.getByRole('button', { name: RETURN_GIFT });
    await giveBack.waitFor({ timeout: 10_000 });
    await screenshots(page, 'gift-return-button');
    await giveBack.click();
    const confirm = page.getByRole('dialog', { name: RETURN_GIFT_CONFIRM });
    await confirm.waitFor();
    await screenshots(page, 'gift-return-confirm');
    await confirm.getByRole('button', { name: 'Return' }).click();
    await page.getByText(GIFT_RETURNED).first().waitFor();
    await balanceShows(page, '$0.00');
    await screenshots(page, 'gift-returned');

    // Bob's side of the thread says so too.
    const bobs = await openAs(browser, app, bob, { viewport: VIEWPORTS.desktop });
    await bobs.goto(`${app.url}/messages/${conversationId}`);
    await bobs.getByText(GIFT_RETURNED).first().waitFor({ timeout: 10_000 });
  });
});
