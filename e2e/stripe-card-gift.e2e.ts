import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeTestServer } from '../api/src/subscriptions/testing/stripe-server.js';
import {
  balanceShows,
  launchBrowser,
  openAs,
  registerViaApi,
  screenshots,
  startApp,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

/**
 * The one-step gift with PAYMENTS=stripe: the server talks to the project's fake Stripe server,
 * and the page's Stripe.js is a test-only stand-in (stripe-js-stand-in.js), because Chromium here
 * cannot load js.stripe.com. Stripe's script address and its API are routed by Playwright: the
 * stand-in's confirmCardPayment reaches the fake Stripe server, which pays 4242… and declines
 * 4000…0002. What this does not show: Stripe's real card iframe and 3-D Secure.
 */
let app: RunningApp;
let browser: Browser;
let stripeApi: StripeTestServer;
let owner: ApiAccount;
const standIn = fs.readFileSync(new URL('./stripe-js-stand-in.js', import.meta.url), 'utf8');

async function call(who: ApiAccount, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-token': who.token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}
const balanceOf = async (who: ApiAccount) => ((await call(who, 'GET', '/api/billing-settings-balance')) as { balance: number }).balance;

beforeAll(async () => {
  stripeApi = await startStripeServer();
  [app, browser] = await Promise.all([
    startApp({
      INVITES_PER_USER: '10',
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_giftlink',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_giftlink',
      STRIPE_PRICE_ID: 'price_test_weekly',
      STRIPE_WEBHOOK_SECRET: `whsec_${crypto.randomBytes(16).toString('hex')}`,
      STRIPE_API_BASE: stripeApi.url,
    }),
    launchBrowser(),
  ]);
  owner = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'sofia');
  await call(owner, 'POST', '/links/create', {
    creatorUserId: owner.userId,
    creatorUsername: owner.username,
    details: { giveorreceive: 'receive', type: 'currency', amount: 100 },
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await stripeApi?.close();
});

/** Stripe's script is the stand-in, and Stripe's API the fake server (as Stripe would answer the page). */
async function routeStripe(context: BrowserContext): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: standIn }),
  );
  await context.route('https://api.stripe.com/**', async (route) => {
    const request = route.request();
    const res = await fetch(request.url().replace('https://api.stripe.com', stripeApi.url), {
      method: request.method(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: request.postData() ?? undefined,
    });
    await route.fulfill({
      status: res.status,
      headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' },
      body: await res.text(),
    });
  });
}

async function freeInvite(): Promise<string> {
  const invites = (await call(owner, 'GET', `/invites/${owner.userId}`)) as { code: string; status: string }[];
  const free = invites.find((i) => i.status === 'available');
  if (!free) throw new Error('the owner has no invite left');
  return free.code;
}

let givers = 0;
async function newGiver(viewport: { width: number; height: number } = VIEWPORTS.phone): Promise<{ giver: ApiAccount; page: Page }> {
  givers += 1;
  const giver = await registerViaApi(app, await freeInvite(), `stripegiver${givers}`);
  const page = await openAs(browser, app, giver, { viewport });
  await routeStripe(page.context());
  await page.goto(`${app.url}/link/${owner.username}`);
  await page.getByRole('button', { name: '$5', exact: true }).click();
  return { giver, page };
}

const gaveText = (page: Page) => page.getByRole('status').first().textContent();

describe('give in one step with a card, through Stripe Elements', () => {
  it('confirms the card with Stripe and gives with one press', async () => {
    const { giver, page } = await newGiver();
    const ownerBefore = await balanceOf(owner);
    await balanceShows(page, '$0.00');
    await page.getByText('$5.00 is charged to your card, then $5.00 is given.').waitFor();
    expect(await page.getByRole('button', { name: 'Add Funds' }).count()).toBe(0);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await screenshots(page, 'stripe-give');
    // Together: a click that fails must not leave the wait to reject unheard (an unhandled error fails the run).
    const [confirmed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/wallet/card-deposit/confirm')),
      page.getByRole('button', { name: 'Give $5.00' }).click(),
    ]);
    expect(confirmed.status()).toBe(200);
    await expect.poll(() => gaveText(page), { timeout: 15_000 }).toBe('You gave $5.00!');
    await screenshots(page, 'stripe-give-outcome');
    expect(await balanceOf(giver)).toBe(0);
    expect(await balanceOf(owner)).toBe(ownerBefore + 5);
    const history = (await call(giver, 'GET', '/api/wallet/history')) as { entries: { kind: string }[] };
    expect(history.entries.map((e) => e.kind)).toEqual(['gift_given', 'deposit']);
    await page.context().close();
  });

  it('says a declined card was declined, moves nothing, and another card then works', async () => {
    const { giver, page } = await newGiver(VIEWPORTS.desktop);
    const ownerBefore = await balanceOf(owner);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toBe('Your card was declined.');
    await screenshots(page, 'stripe-give-declined');
    expect(await balanceOf(giver)).toBe(0);
    expect(await balanceOf(owner)).toBe(ownerBefore);
    expect(((await call(giver, 'GET', '/api/wallet/history')) as { entries: unknown[] }).entries).toEqual([]);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => gaveText(page), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(await balanceOf(owner)).toBe(ownerBefore + 5);
    await page.context().close();
  });

  it('saves the card, and the next gift uses it without the card form', async () => {
    const { giver, page } = await newGiver();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Save this card').check();
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => gaveText(page), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(((await call(giver, 'GET', '/api/wallet/card')) as { card: unknown }).card).toEqual({ last4: '4242' });
    // Another creator's link: the saved card pays (off session), with no card form.
    const second = await registerViaApi(app, await freeInvite(), 'tomas');
    await call(second, 'POST', '/links/create', {
      creatorUserId: second.userId,
      creatorUsername: second.username,
      details: { giveorreceive: 'receive', type: 'currency', amount: 100 },
    });
    await page.goto(`${app.url}/link/${second.username}`);
    await page.getByRole('button', { name: '$5', exact: true }).click();
    await page.getByText('Paid with card ending 4242').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await screenshots(page, 'stripe-give-saved-card');
    await page.getByRole('button', { name: 'Give $5.00' }).click();
    await expect.poll(() => gaveText(page), { timeout: 15_000 }).toBe('You gave $5.00!');
    expect(await balanceOf(second)).toBe(5);
    expect(await balanceOf(giver)).toBe(0);
    await page.context().close();
  });
});
