import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS, logIn, openAs, screenshots, startStories, stopStories, type ApiAccount, type RunningApp } from './harness.js';

/**
 * The weekly subscription on the sandbox provider: step 1 → 2 → 3 with the sandbox card
 * form, a declined card, the badge as another account sees it, cancel, and paying from the
 * balance. Stripe Elements cannot load offline, so only the sandbox card path runs here.
 */

let app: RunningApp;
let browser: Browser;
let ada: ApiAccount;
let ben: ApiAccount;
let cal: ApiAccount;

async function subscribed(who: ApiAccount): Promise<boolean> {
  const res = await app.request(who, 'GET', `/subscriptions/get-subscription-info/${who.userId}`);
  return (res.body?.subscriptionInfo as { isSubscribed: boolean } | undefined)?.isSubscribed ?? false;
}

beforeAll(async () => {
  [app, browser, ada, ben, cal] = await startStories(['ada', 'ben', 'cal']);
  // A link of ada's in the feed, so others see her name (and later her badge) on a link card.
  const link = await app.request(ada, 'POST', '/links/create', {
    creatorUserId: ada.userId,
    creatorUsername: 'ada',
    details: { giveorreceive: 'receive', type: 'currency', amount: 5 },
  });
  expect(link.status).toBe(201);
});
afterAll(() => stopStories(app, browser));

const badge = (page: Page) => page.getByTitle('Verified subscriber');

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').pressSequentially('1230');
  await page.getByLabel('CVC').fill('123');
}

describe('the weekly subscription', () => {
  it('is only for the signed-in named user', async () => {
    const visitor = await browser.newPage({ viewport: VIEWPORTS.phone });
    await visitor.goto(`${app.url}/manage-subscription/ada`);
    await visitor.getByRole('heading', { name: 'Please log in to subscribe.' }).waitFor();
    await screenshots(visitor, 'subscription-logged-out');
    await visitor.close();

    const b = await openAs(browser, app, ben);
    await b.goto(`${app.url}/manage-subscription/ada`);
    await b.waitForURL(`${app.url}/`);
    await b.context().close();
  });

  it('subscribes with the sandbox card (a declined card changes nothing), shows the badge to others, and cancels', async () => {
    // Ben sees no badge and is asked to subscribe to see ada's link.
    const b = await openAs(browser, app, ben, { viewport: VIEWPORTS.desktop });
    await b.goto(`${app.url}/profile/ada`);
    await b.getByText("Subscribe to see this user's link").waitFor();
    expect(await badge(b).count()).toBe(0);

    const a = await openAs(browser, app, ada);
    await a.goto(`${app.url}/manage-subscription/ada`);
    // Step 1: the product.
    await a.getByRole('heading', { name: 'Giftlink Weekly' }).waitFor();
    await a.getByText('$1.99').first().waitFor();
    await a.getByText(/renews every week until you cancel/).waitFor();
    await screenshots(a, 'subscription-step1');
    await a.getByRole('button', { name: 'Continue to payment' }).click();

    // Step 2: the sandbox card form, clearly test mode.
    await a.getByText('TEST MODE').waitFor();
    await a.getByRole('button', { name: 'Pay $1.99 and subscribe' }).click();
    await a.getByText('Please enter a valid card number.').waitFor();
    await fillCard(a, '4242424242424242');
    expect(await a.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await a.getByLabel('Expiry (MM/YY)').inputValue()).toBe('12 / 30');
    await screenshots(a, 'subscription-step2');

    // The declined card: its message, and nothing changes.
    await a.getByLabel('Card number').fill('4000 0000 0000 0002');
    await a.getByRole('button', { name: 'Pay $1.99 and subscribe' }).click();
    const declined = a.getByRole('alert').filter({ hasText: /^Error: / });
    await declined.waitFor();
    expect(await declined.textContent()).toMatch(/declined/i);
    await screenshots(a, 'subscription-declined');
    expect(await subscribed(ada)).toBe(false);

    // 4242…: step 3 with confetti.
    await a.getByLabel('Card number').fill('4242 4242 4242 4242');
    await a.getByRole('button', { name: 'Pay $1.99 and subscribe' }).click();
    await a.getByRole('heading', { name: 'You are now subscribed!' }).waitFor();
    expect(await a.getByTestId('confetti').count()).toBe(1);
    await screenshots(a, 'subscription-success');
    expect(await subscribed(ada)).toBe(true);

    // Ben now sees the badge on ada's profile, her link card and her link page.
    await b.reload();
    await badge(b).first().waitFor();
    await screenshots(b, 'subscription-badge-profile');
    await b.goto(`${app.url}/`);
    await b.getByRole('link', { name: /User\s*Verified\s*is requesting \$5\.00/ }).waitFor();
    await screenshots(b, 'subscription-badge-feed');
    await b.goto(`${app.url}/link/ada`);
    await badge(b).first().waitFor();

    // Ada, subscribed, sees other users' links: the profile no longer asks her to subscribe.
    await a.goto(`${app.url}/profile/ben`);
    await a.getByText('No active link right now.').waitFor();
    expect(await a.getByText("Subscribe to see this user's link").count()).toBe(0);

    // Manage: status and Cancel with a confirmation; benefits last until the end date.
    await a.goto(`${app.url}/manage-subscription/ada`);
    await a.getByText('Active', { exact: true }).waitFor();
    await a.getByText(/^Renews on /).waitFor();
    await screenshots(a, 'subscription-active');
    await a.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = a.getByRole('dialog');
    await confirm.getByText(/Cancel your subscription\?/).waitFor();
    await screenshots(a, 'subscription-cancel-confirm');
    await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
    await a.getByText(/^Your benefits last until /).waitFor();
    await a.getByRole('button', { name: 'Resume' }).waitFor();
    await screenshots(a, 'subscription-canceled');
    expect(await subscribed(ada)).toBe(true);

    // Still verified until the end date.
    await b.goto(`${app.url}/profile/ada`);
    await badge(b).first().waitFor();

    // Resume: active again, nothing charged.
    await a.getByRole('button', { name: 'Resume' }).click();
    await a.getByRole('button', { name: 'Cancel subscription' }).waitFor();
    await a.getByText(/^Renews on /).waitFor();

    await a.context().close();
    await b.context().close();
  });

  it('pays from the Giftlink balance, with no confetti under reduced motion', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, reducedMotion: 'reduce' });
    const c = await context.newPage();
    await logIn(c, app, cal);
    await c.goto(`${app.url}/manage-subscription/cal`);
    await c.getByRole('button', { name: 'Continue to payment' }).click();
    await c.getByRole('radio', { name: 'Giftlink balance' }).check();
    const pay = c.getByRole('button', { name: 'Pay with your Giftlink balance' });
    await pay.waitFor();
    expect(await pay.isDisabled()).toBe(true);
    await c.getByText(/Add money to your account balance\./).waitFor();
    await screenshots(c, 'subscription-balance-short');

    const deposit = await app.request(
      cal,
      'POST',
      '/api/billing-settings-deposit',
      { userId: cal.userId, balance: 5 },
      { 'Idempotency-Key': crypto.randomUUID() },
    );
    expect(deposit.status).toBe(200);
    await c.reload();
    await c.getByRole('button', { name: 'Continue to payment' }).click();
    await c.getByRole('radio', { name: 'Giftlink balance' }).check();
    await c.getByText('$5.00').first().waitFor();
    await screenshots(c, 'subscription-balance');
    await c.getByRole('button', { name: 'Pay with your Giftlink balance' }).click();
    await c.getByRole('heading', { name: 'You are now subscribed!' }).waitFor();
    expect(await c.getByTestId('confetti').count()).toBe(0);
    expect(await subscribed(cal)).toBe(true);
    const me = await app.request(cal, 'GET', '/api/auth/me');
    expect(me.body?.balance).toBe(3.01);
    await context.close();

    // Ben accepts cal's give link: their named conversation shows cal's badge to ben.
    const give = await app.request(cal, 'POST', '/links/create', {
      creatorUserId: cal.userId,
      creatorUsername: 'cal',
      details: { giveorreceive: 'give', type: 'currency', amount: 1, quantity: 1 },
    });
    expect(give.status).toBe(201);
    expect((await app.request(ben, 'PUT', '/api/accept-link', { linkCreatorUsername: 'cal' })).status).toBe(200);
    const b = await openAs(browser, app, ben);
    await b.goto(`${app.url}/conversations`);
    await b.getByRole('link', { name: /cal\s*Verified/ }).waitFor();
    await screenshots(b, 'subscription-badge-inbox');
    await b.getByRole('link', { name: /cal\s*Verified/ }).click();
    await b.getByRole('heading', { name: /cal\s*Verified/ }).waitFor();
    await b.getByText('You received a gift of $1.00!').last().waitFor();
    await screenshots(b, 'subscription-badge-thread');
    await b.context().close();
  });
});
