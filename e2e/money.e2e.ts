import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceButton,
  balanceShows,
  createGiveLink,
  deposit,
  openAs,
  registerViaApi,
  screenshots,
  startStories,
  stopStories,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

let app: RunningApp;
let browser: Browser;
/** Invites the three people of each attempt. */
let host: ApiAccount;

beforeAll(async () => {
  [app, browser, host] = await startStories(['host']);
});
afterAll(() => stopStories(app, browser));

// Each attempt moves money between fresh people, so a retry does not meet the balances an earlier one left.
let attempts = 0;
async function threePeople(): Promise<[ApiAccount, ApiAccount, ApiAccount]> {
  attempts += 1;
  const ada = await registerViaApi(app, host.inviteCodes[attempts - 1], `ada${attempts}`);
  const ben = await registerViaApi(app, ada.inviteCodes[0], `ben${attempts}`);
  const cal = await registerViaApi(app, ada.inviteCodes[1], `cal${attempts}`);
  return [ada, ben, cal];
}

const as = (account: ApiAccount, viewport?: { width: number; height: number }) =>
  openAs(browser, app, account, { viewport, clipboard: true });

describe('money moving between three people', () => {
  it('A deposits and creates a give link, B accepts it from the feed, C gives $5 to B', async () => {
    const [ada, ben, cal] = await threePeople();
    // A: deposit sandbox money, then a give link of $5 for 2 people.
    const a = await as(ada, { width: 1280, height: 800 });
    await deposit(a, '20');
    await balanceShows(a, '$20.00');
    await createGiveLink(a, app, '5', '2');
    await balanceShows(a, '$10.00');
    await screenshots(a, 'share-created');

    // B: finds it in the feed, opens it and accepts.
    const b = await as(ben);
    await b
      .getByRole('link', { name: /User is giving \$5\.00/ })
      .first()
      .click();
    await b.waitForURL(`${app.url}/link/${ada.username}`);
    await b.getByRole('button', { name: 'Accept' }).waitFor();
    await screenshots(b, 'link-accept');
    await b.getByRole('button', { name: 'Accept' }).click();
    await b.getByText('You received a gift of $5.00!').first().waitFor();
    await balanceShows(b, '$5.00');
    await b.reload();
    await b.getByText("you can't use this link more than once").waitFor();

    // A sees the use in the metrics, and their balance did not change again.
    await a.goto(`${app.url}/link/${ada.username}`);
    await a.getByRole('heading', { name: 'Link Metrics' }).waitFor();
    await screenshots(a, 'link-metrics');
    await balanceShows(a, '$10.00');

    // B makes a receive link; C deposits, gives $5 after confirming.
    await b.goto(`${app.url}/share`);
    await b.getByRole('radio', { name: 'Receive' }).check();
    await b.getByRole('radio', { name: 'Currency' }).check();
    await b.getByLabel('Amount').fill('10');
    await b.getByRole('button', { name: 'Create' }).click();
    await b.getByText('Your link is ready').waitFor();

    const c = await as(cal);
    await deposit(c, '12');
    await c.goto(`${app.url}/link/${ben.username}`);
    await c.getByRole('button', { name: '$5', exact: true }).click();
    await c.getByRole('button', { name: 'Give', exact: true }).click();
    const confirm = c.getByRole('dialog', { name: 'Are you sure you want to give $5.00?' });
    await confirm.waitFor();
    await screenshots(c, 'give-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await c.getByText('You gave $5.00!').waitFor();
    await balanceShows(c, '$7.00');

    await b.reload();
    await balanceShows(b, '$10.00');

    // The home feed, as a person sees it.
    await b.goto(`${app.url}/`);
    // B's receive link is used up by C's gift; A's give link still has one use left.
    await b
      .getByRole('link', { name: /User is giving \$5\.00/ })
      .first()
      .waitFor();
    await screenshots(b, 'home-feed');
  });
});

describe('the balance dialog', () => {
  it('refuses an invalid amount and puts the cursor back in the field', async () => {
    const page = await as(host);
    await balanceButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Your balance' });
    await dialog.getByLabel('Amount').fill('0.5');
    await dialog.getByRole('button', { name: 'Deposit' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please enter a valid amount above $1' }).waitFor();
    await expect.poll(() => dialog.getByLabel('Amount').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  });
});
