import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowConsoleError,
  balanceShows,
  openAs,
  registerViaApi,
  screenshots,
  startStories,
  stopStories,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

/**
 * Giving in one step: a giver with no balance picks $5 on a receive link, types a test card and
 * presses 'Give $5.00' once; the card pays what is missing and the gift is sent.
 */
let app: RunningApp;
let browser: Browser;
let owner: ApiAccount;

const balanceOf = async (who: ApiAccount) => ((await app.call(who, 'GET', '/api/billing-settings-balance')) as { balance: number }).balance;

beforeAll(async () => {
  [app, browser, owner] = await startStories(['olga'], { INVITES_PER_USER: '20' });
  await app.call(owner, 'POST', '/links/create', {
    creatorUserId: owner.userId,
    creatorUsername: owner.username,
    details: { giveorreceive: 'receive', type: 'currency', amount: 100 },
  });
}, 120_000);
afterAll(() => stopStories(app, browser));

/** One of the owner's invites still free (joining through the link uses one too). */
async function freeInvite(): Promise<string> {
  const invites = (await app.call(owner, 'GET', `/invites/${owner.userId}`)) as { code: string; status: string }[];
  const free = invites.find((i) => i.status === 'available');
  if (!free) throw new Error('the owner has no invite left');
  return free.code;
}

let givers = 0;
async function newGiver(): Promise<{ giver: ApiAccount; page: Page }> {
  givers += 1;
  const giver = await registerViaApi(app, await freeInvite(), `giver${givers}`);
  const page = await openAs(browser, app, giver, { viewport: VIEWPORTS.phone });
  await page.goto(`${app.url}/link/${owner.username}`);
  await page.getByRole('button', { name: '$5', exact: true }).click();
  return { giver, page };
}

/** A visitor on the link page joins through the banner's 'Join Giftlink' (the owner's invite). */
async function joinFromLink(page: Page, username: string): Promise<void> {
  await page.getByRole('link', { name: 'Join Giftlink' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Date of birth').fill('1990-01-01');
  await page.getByLabel('Password', { exact: true }).fill('joined-4-gifts');
  await page.getByLabel('Confirm password').fill('joined-4-gifts');
  await page.getByRole('button', { name: 'Create Account' }).click();
}

async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12 / 40');
  await page.getByLabel('CVC').fill('123');
}

describe('give in one step with a card', () => {
  it('charges the card for what is missing and sends the gift with one press; the history has both rows', async () => {
    const { giver, page } = await newGiver();
    const ownerBefore = await balanceOf(owner);
    await balanceShows(page, '$0.00');
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByText('$5.00 is charged to your card, then $5.00 is given.').waitFor();
    await page.getByLabel('Add a note (optional)').fill('Happy birthday!');
    await screenshots(page, 'one-step-give');
    const [gave] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/statuses/api/gives')),
      page.getByRole('button', { name: 'Give $5.00' }).click(),
    ]);
    expect(gave.postDataJSON()).toMatchObject({ amount: 5, note: 'Happy birthday!' });
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    await screenshots(page, 'one-step-give-outcome');
    await balanceShows(page, '$0.00');
    expect(await balanceOf(giver)).toBe(0);
    expect(await balanceOf(owner)).toBe(ownerBefore + 5);

    await page.goto(`${app.url}/money`);
    const rows = page.getByRole('list', { name: 'Money history' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(2);
    const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts[0]).toMatch(/^Gift given.*-\$5\.00/);
    expect(texts[1]).toMatch(/^Deposit.*\+\$5\.00/);
    await screenshots(page, 'one-step-give-history');
    await page.context().close();
  });

  it('moves nothing for a declined card and says so', async () => {
    const { giver, page } = await newGiver();
    const ownerBefore = await balanceOf(owner);
    await typeCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toBe('Your card was declined.');
    await screenshots(page, 'one-step-give-declined');
    await balanceShows(page, '$0.00');
    expect(await balanceOf(giver)).toBe(0);
    expect(await balanceOf(owner)).toBe(ownerBefore);
    const history = (await app.call(giver, 'GET', '/api/wallet/history')) as { entries: unknown[] };
    expect(history.entries).toEqual([]);
    // Still the give step, and another card works from it.
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(await balanceOf(owner)).toBe(ownerBefore + 5);
    await page.context().close();
  });

  it('saves the card and gives with it next time, without the card form', async () => {
    const { giver, page } = await newGiver();
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByLabel('Save this card').check();
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(((await app.call(giver, 'GET', '/api/wallet/card')) as { card: unknown }).card).toEqual({ last4: '4242' });

    // Another creator's link: the saved card pays, with no card form.
    const second = await registerViaApi(app, await freeInvite(), 'petra');
    await app.call(second, 'POST', '/links/create', {
      creatorUserId: second.userId,
      creatorUsername: second.username,
      details: { giveorreceive: 'receive', type: 'currency', amount: 100 },
    });
    await page.goto(`${app.url}/link/${second.username}`);
    await page.getByRole('button', { name: '$5', exact: true }).click();
    await page.getByText('Paid with card ending 4242').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('button', { name: 'Use another card' }).waitFor();
    await screenshots(page, 'one-step-give-saved-card');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(await balanceOf(second)).toBe(5);
    expect(await balanceOf(giver)).toBe(0);
    await page.context().close();
  });

  it('a visitor picks $5, joins through the link and comes back to the same give step with $5 chosen', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto(`${app.url}/link/${owner.username}`);
    await page.getByRole('button', { name: '$5', exact: true }).click();
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=5`);
    await screenshots(page, 'one-step-give-visitor');
    await joinFromLink(page, 'joiner');
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=5`);
    expect(await page.getByRole('button', { name: '$5', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    await context.close();
  });

  it("a visitor types 'Other amount' 7.25, joins through 'Join Giftlink' and comes back to the give step showing $7.25", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto(`${app.url}/link/${owner.username}`);
    await page.getByLabel('Other amount').fill('7.25');
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=7.25`);
    await screenshots(page, 'one-step-give-visitor-other');
    await joinFromLink(page, 'typer');
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=7.25`);
    expect(await page.getByLabel('Other amount').inputValue()).toBe('7.25');
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByText('$7.25 is charged to your card, then $7.25 is given.').waitFor();
    await screenshots(page, 'one-step-give-joined-other');
    await page.getByRole('button', { name: 'Give $7.25' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $7.25!');
    await context.close();
  });

  it("a visitor types 'Other amount' 7.25, logs in and comes back to the give step showing $7.25", async () => {
    const member = await registerViaApi(app, await freeInvite(), 'lena');
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await page.goto(`${app.url}/link/${owner.username}`);
    await page.getByLabel('Other amount').fill('7.25');
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=7.25`);
    await page.getByRole('region', { name: 'Log in to use this link' }).getByRole('link', { name: 'Login' }).click();
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.url}/link/${owner.username}?amount=7.25`);
    expect(await page.getByLabel('Other amount').inputValue()).toBe('7.25');
    await page.getByRole('button', { name: 'Give $7.25' }).waitFor();
    await context.close();
  });

  it('a lost answer is resent with its key, and pressing again reuses the attempt: the card is charged once', async () => {
    const { giver, page } = await newGiver();
    const keys: string[] = [];
    // The first answer and the client's own resend of it are both lost: then the page says so.
    let lose = 2;
    await page.route('**/api/wallet/card-deposit', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (lose === 0) return route.continue();
      // The server charges the card and answers, but the answer never reaches the page.
      lose -= 1;
      await route.fetch();
      allowConsoleError(/Failed to load resource: net::ERR_CONNECTION_RESET/);
      await route.abort('connectionreset');
    });
    await typeCard(page, '4242 4242 4242 4242');
    // The give goes only after the second press: awaited below, heard now (a step failing before must not leave it unheard).
    const gave = page.waitForRequest((r) => r.url().endsWith('/statuses/api/gives'));
    gave.catch(() => undefined);
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await page.getByRole('alert').first().waitFor();
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 }).toBe('You gave $5.00!');
    // No note written: the give sends none.
    expect(Object.keys((await gave).postDataJSON() as object)).not.toContain('note');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    const history = (await app.call(giver, 'GET', '/api/wallet/history')) as { entries: { kind: string }[] };
    expect(history.entries.map((e) => e.kind)).toEqual(['gift_given', 'deposit']);
    expect(await balanceOf(giver)).toBe(0);
    await page.context().close();
  });

  it('buys a wishlist item in one step when the balance is short', async () => {
    const o = await openAs(browser, app, owner, { viewport: VIEWPORTS.desktop });
    await o.goto(`${app.url}/wishlist/${owner.username}`);
    await o.getByRole('searchbox', { name: 'Search for an item' }).fill('mug');
    await o.getByRole('button', { name: 'Search', exact: true }).click();
    await o
      .getByRole('button', { name: /^Send Now/ })
      .first()
      .click();
    await o.getByText('All changes saved').waitFor();
    await o.context().close();

    const { giver, page } = await newGiver();
    await page.goto(`${app.url}/wishlist/${owner.username}`);
    await page.getByRole('list', { name: 'Wishlist items' }).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Card number').waitFor();
    expect(await dialog.getByRole('button', { name: 'Add Funds' }).count()).toBe(0);
    await typeCard(page, '4242 4242 4242 4242');
    await screenshots(page, 'one-step-purchase');
    await dialog.getByRole('button', { name: /^Give \$/ }).click();
    await page.waitForURL(/\/messages\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const history = (await app.call(giver, 'GET', '/api/wallet/history')) as { entries: { kind: string }[] };
    expect(history.entries.map((e) => e.kind)).toEqual(['purchase', 'deposit']);
    expect(await balanceOf(giver)).toBe(0);
    await page.context().close();
  });
});
