import crypto from 'node:crypto';
import Stripe from 'stripe';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardAccount, signedPayoutEvent } from '../api/src/subscriptions/testing/stripe-connect-server.js';
import { startStripeServer, type StripeTestServer } from '../api/src/subscriptions/testing/stripe-server.js';
import { launchBrowser, openAs, registerViaApi, screenshots, startApp, type ApiAccount, type RunningApp } from './harness.js';

/**
 * A bank payout that fails after its Transfer, with PAYMENTS=stripe: the server talks to the
 * project's fake Stripe server, Stripe's signed `payout.failed` and `payout.paid` reach the Connect
 * webhook, and Settings → Payouts says what happened and offers 'Change bank account', which opens
 * Stripe's Express Dashboard outside the app (a new tab here; Playwright answers for Stripe's page).
 */
let app: RunningApp;
let browser: Browser;
let stripeApi: StripeTestServer;
let nora: ApiAccount;
let accountId: string;
const connectSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`;
const stripe = new Stripe('sk_test_giftlink');

beforeAll(async () => {
  stripeApi = await startStripeServer();
  [app, browser] = await Promise.all([
    startApp({
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_giftlink',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_giftlink',
      STRIPE_PRICE_ID: 'price_test_weekly',
      STRIPE_WEBHOOK_SECRET: `whsec_${crypto.randomBytes(16).toString('hex')}`,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
      STRIPE_API_BASE: stripeApi.url,
    }),
    launchBrowser(),
  ]);
  nora = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'nora');
  // Payouts set up as Stripe's hosted onboarding would leave them, read back as the return page does.
  const { url } = await app.call<{ url: string }>(nora, 'POST', '/api/payouts/onboarding', {});
  accountId = url.match(/acct_\w+/)![0];
  onboardAccount(stripeApi.objects, accountId);
  await app.call(nora, 'GET', '/api/payouts?refresh=true');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await stripeApi?.close();
});

async function deliver(type: 'payout.failed' | 'payout.paid', fields: { amount: number; created: number; failureCode?: string }) {
  const event = signedPayoutEvent(stripe, connectSecret, type, { accountId, ...fields });
  const res = await fetch(`${app.url}/payouts/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  });
  expect(await res.json()).toMatchObject({ outcome: 'processed' });
}

describe('a bank payout that fails, with Stripe', () => {
  it('on a phone: Settings says the bank refused it, Change bank account opens Stripe, a later payout clears it', async () => {
    const now = Math.floor(Date.now() / 1000);
    await deliver('payout.failed', { amount: 1250, created: now - 86_400, failureCode: 'account_closed' });
    const page = await openAs(browser, app, nora);
    await page
      .context()
      .route('https://connect.stripe.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe Express</title><p>Stripe Express</p>' }),
      );
    await page.goto(`${app.url}/profile/${nora.username}/settings#payouts`);
    const section = page.getByRole('region', { name: 'Payouts' });
    await section
      .getByText(
        'Your bank refused a payout of $12.50 (the bank account is closed). The money waits at Stripe until you update your bank details.',
      )
      .waitFor();
    await screenshots(page, 'payouts-bank-refused');

    const opened = page.context().waitForEvent('page');
    await section.getByRole('button', { name: 'Change bank account' }).click();
    const dashboard = await opened;
    await dashboard.waitForLoadState();
    expect(dashboard.url()).toMatch(new RegExp(`^https://connect\\.stripe\\.com/express/${accountId}/`));
    await dashboard.close();
    expect(page.url()).toMatch(/\/settings#payouts$/);

    // Once the bank is fixed at Stripe, its next payout is paid: the notice goes.
    await deliver('payout.paid', { amount: 1250, created: now });
    await page.reload();
    await section.getByText('Ready: withdrawals go to your bank account ending 6789.').waitFor();
    expect(await section.getByText(/Your bank refused a payout/).count()).toBe(0);
    await section.getByRole('button', { name: 'Change bank account' }).waitFor();
    await page.context().close();
  });
});
