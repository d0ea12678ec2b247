import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type StripeConfig } from '../config.js';
import { AppError } from '../errors.js';
import { balanceOfUser, buildUser, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { StripePayments, createStripePayments } from '../payments/stripe.js';
import { stripeClient } from '../payments/stripe-client.js';
import { setUpStripePrice } from './stripe-setup.js';
import { startStripeApp, TEST_PRICE_ID as PRICE_ID, type StripeApp } from './testing/stripe-app.js';
import { startStripeServer, type StripeTestServer } from './testing/stripe-server.js';
import { onboardAccount } from './testing/stripe-connect-server.js';
import { PAYOUTS_NOT_READY } from '../../contract/texts.js';

/**
 * The Stripe adapter against a local Stripe-shaped server (testing/stripe-server.ts,
 * Stripe's own fixtures), the app running with PAYMENTS=stripe: the calls and parameters it sends,
 * idempotency keys, the set-up command, deposits and withdrawals. Webhooks: stripe-webhook.test.ts.
 */
const DAY_MS = 86_400_000;

let app: StripeApp;
let stripeApi: StripeTestServer;
let server: TestServer;
let stripeConfig: StripeConfig;

beforeAll(async () => {
  app = await startStripeApp();
  ({ stripeApi, server, stripeConfig } = app);
});

afterAll(async () => {
  await app?.close();
});

const since = (mark: number) => stripeApi.requests.slice(mark);
const key = () => crypto.randomUUID();

describe('configuration', () => {
  it('PAYMENTS=stripe names the missing variable at start-up', () => {
    const env = {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow('STRIPE_PRICE_ID is required when PAYMENTS=stripe');
    expect(() => loadConfig({ ...env, STRIPE_PRICE_ID: 'price_1', STRIPE_SECRET_KEY: 'nope' })).toThrow('STRIPE_SECRET_KEY');
    const ok = loadConfig({ ...env, STRIPE_PRICE_ID: 'price_1', STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(ok.stripe?.api).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(loadConfig({}).stripe).toBeUndefined();
  });
});

describe('the site with PAYMENTS=stripe', () => {
  it('tells the page to use Stripe Elements, and lets Stripe.js and its frames through the Content-Security-Policy', async () => {
    const config = await server.request('GET', '/subscriptions/config');
    expect(config.body).toMatchObject({ provider: 'stripe', testMode: true, publishableKey: 'pk_test_giftlink' });
    const csp = config.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
  });
});

describe('the subscription adapter', () => {
  it('sends a customer, then a default_incomplete weekly subscription, with an idempotency key on every create', async () => {
    const provider = createStripePayments(server.deps.config, server.deps.db);
    const mark = stripeApi.requests.length;
    const customer = await provider.ensureCustomer({
      userId: 'user-1',
      email: 'one@example.com',
      existingCustomerId: null,
      idempotencyKey: key(),
    });
    const subKey = key();
    const started = await provider.startSubscription({ customerId: customer.id, idempotencyKey: subKey });

    const [createCustomer, createSub] = since(mark);
    expect(createCustomer).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      params: { email: 'one@example.com', 'metadata[userId]': 'user-1' },
    });
    expect(createSub).toMatchObject({
      method: 'POST',
      path: '/v1/subscriptions',
      idempotencyKey: subKey,
      params: {
        customer: customer.id,
        'items[0][price]': PRICE_ID,
        payment_behavior: 'default_incomplete',
        'payment_settings[save_default_payment_method]': 'on_subscription',
        'expand[0]': 'latest_invoice.confirmation_secret',
        'expand[1]': 'latest_invoice.payments',
      },
    });
    expect(started.subscriptionId).toMatch(/^sub_/);
    expect(started.paymentIntentId).toMatch(/^pi_/);
    expect(started.clientSecret.startsWith(`${started.paymentIntentId}_secret_`)).toBe(true);

    // The same key gets the same subscription back (Stripe's idempotency), so a retry never makes a second one.
    const again = await provider.startSubscription({ customerId: customer.id, idempotencyKey: subKey });
    expect(again).toEqual(started);
    // A known customer is reused without a call.
    const before = stripeApi.requests.length;
    expect(await provider.ensureCustomer({ userId: 'user-1', email: 'x', existingCustomerId: customer.id, idempotencyKey: key() })).toEqual(
      customer,
    );
    expect(stripeApi.requests.length).toBe(before);

    // The server reads the payment itself, and which subscription it pays.
    expect(await provider.getPaymentIntent(started.paymentIntentId)).toEqual({
      id: started.paymentIntentId,
      status: 'requires_payment_method',
      amountCents: 199,
      subscriptionId: started.subscriptionId,
    });
    stripeApi.succeed(started.paymentIntentId);
    expect((await provider.getPaymentIntent(started.paymentIntentId)).status).toBe('succeeded');

    const state = await provider.getSubscription(started.subscriptionId);
    expect(state).toMatchObject({
      subscriptionId: started.subscriptionId,
      customerId: customer.id,
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    expect(Math.abs(state.currentPeriodEnd.getTime() - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);

    const cancelKey = key();
    const canceled = await provider.setCancelAtPeriodEnd(started.subscriptionId, true, cancelKey);
    expect(canceled.cancelAtPeriodEnd).toBe(true);
    expect(stripeApi.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/subscriptions/${started.subscriptionId}`,
      params: { cancel_at_period_end: 'true' },
      idempotencyKey: cancelKey,
    });

    // Every POST the adapter made carried an Idempotency-Key.
    const posts = since(mark).filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(4);
    for (const post of posts) expect(post.idempotencyKey, post.path).toBeTruthy();
  });

  it('a Stripe error is an AppError, never a crash: an unknown payment is a 404', async () => {
    const provider = createStripePayments(server.deps.config, server.deps.db);
    await expect(provider.getPaymentIntent('pi_unknown')).rejects.toMatchObject({ status: 404 });
  });
});

describe('npm run stripe:setup', () => {
  it('creates the product and the weekly $1.99 price once, then finds them', async () => {
    const setupServer = await startStripeServer();
    try {
      const stripe = stripeClient({
        ...stripeConfig,
        api: { host: '127.0.0.1', port: Number(new URL(setupServer.url).port), protocol: 'http' },
      });
      const first = await setUpStripePrice(stripe);
      expect(first).toMatchObject({ productId: 'giftlink-weekly', created: true });
      const createPrice = setupServer.requests.find((r) => r.method === 'POST' && r.path === '/v1/prices');
      expect(createPrice?.params).toMatchObject({
        product: 'giftlink-weekly',
        unit_amount: '199',
        currency: 'usd',
        'recurring[interval]': 'week',
        lookup_key: 'giftlink_weekly',
      });
      for (const post of setupServer.requests.filter((r) => r.method === 'POST')) expect(post.idempotencyKey).toBeTruthy();

      const second = await setUpStripePrice(stripe);
      expect(second).toEqual({ ...first, created: false });
      expect(setupServer.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    } finally {
      await setupServer.close();
    }
  });
});

describe('deposits and withdrawals through Stripe', () => {
  async function customerFor(who: TestUser): Promise<string> {
    const provider = createStripePayments(server.deps.config, server.deps.db);
    const customer = await provider.ensureCustomer({
      userId: who.user._id,
      email: 'x@example.com',
      existingCustomerId: null,
      idempotencyKey: key(),
    });
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, { stripeCustomerId: customer.id }));
    return customer.id;
  }

  it('charges the saved card off-session with the wallet’s idempotency key; no card or a decline is a 402', async () => {
    const payments = new StripePayments(stripeClient(stripeConfig), server.deps.db, stripeConfig.priceId);
    const alice = await buildUser(server);
    await expect(payments.charge({ userId: alice.user._id, amountCents: 500, idempotencyKey: key() })).rejects.toMatchObject({
      status: 402,
      code: 'payment_method_required',
    });
    const customerId = await customerFor(alice);
    stripeApi.setCustomer(customerId, { defaultPaymentMethod: 'pm_card_visa' });

    const depositKey = key();
    const mark = stripeApi.requests.length;
    const charged = await payments.charge({ userId: alice.user._id, amountCents: 500, idempotencyKey: depositKey });
    expect(charged.reference).toMatch(/^pi_/);
    expect(since(mark).find((r) => r.path === '/v1/payment_intents')).toMatchObject({
      method: 'POST',
      idempotencyKey: depositKey,
      params: {
        amount: '500',
        currency: 'usd',
        customer: customerId,
        payment_method: 'pm_card_visa',
        confirm: 'true',
        off_session: 'true',
      },
    });
    // A retry with the same key is the same PaymentIntent, not a second charge.
    expect(await payments.charge({ userId: alice.user._id, amountCents: 500, idempotencyKey: depositKey })).toEqual(charged);

    stripeApi.declineNextCharge();
    const declined = await payments
      .charge({ userId: alice.user._id, amountCents: 700, idempotencyKey: key() })
      .catch((err: unknown) => err);
    expect(declined).toBeInstanceOf(AppError);
    expect(declined).toMatchObject({ status: 402, code: 'payment_declined', message: 'Your card was declined.' });
  });

  it('a deposit through the API charges the card at Stripe (PAYMENTS=stripe wires StripePayments)', async () => {
    const dave = await buildUser(server);
    const refused = await server.request('POST', '/api/billing-settings-deposit', { token: dave.token, body: { balance: 5 } });
    expect(refused.status).toBe(402);
    expect(await balanceOfUser(server, dave)).toBe(0);
    stripeApi.setCustomer(await customerFor(dave), { defaultPaymentMethod: 'pm_card_visa' });
    const mark = stripeApi.requests.length;
    const paid = await server.request('POST', '/api/billing-settings-deposit', {
      token: dave.token,
      body: { balance: 5 },
      headers: { 'idempotency-key': key() },
    });
    expect(paid.status).toBe(200);
    expect(await balanceOfUser(server, dave)).toBe(5);
    const charge = since(mark).find((r) => r.path === '/v1/payment_intents');
    expect(charge).toMatchObject({ method: 'POST', params: { amount: '500', off_session: 'true' } });
    expect(charge?.idempotencyKey).toBeTruthy();
  });

  it('a card deposit charges the saved card at Stripe once per key, and never takes card details', async () => {
    const erin = await buildUser(server);
    const cardDeposit = (body: unknown, idempotencyKey: string) =>
      server.request('POST', '/api/wallet/card-deposit', { token: erin.token, body, headers: { 'idempotency-key': idempotencyKey } });
    const typed = await cardDeposit({ amount: 5, card: { number: '4242424242424242', expiry: '12/40', cvc: '123' } }, key());
    expect(typed.status).toBe(400);
    stripeApi.setCustomer(await customerFor(erin), { defaultPaymentMethod: 'pm_card_visa' });
    const mark = stripeApi.requests.length;
    const depositKey = key();
    expect((await cardDeposit({ amount: 5 }, depositKey)).body).toEqual({ new_balance: 5 });
    expect((await cardDeposit({ amount: 5 }, depositKey)).body).toEqual({ new_balance: 5 });
    expect(await balanceOfUser(server, erin)).toBe(5);
    const charges = since(mark).filter((r) => r.path === '/v1/payment_intents');
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ method: 'POST', params: { amount: '500', off_session: 'true' } });

    stripeApi.declineNextCharge();
    const declined = await cardDeposit({ amount: 7 }, key());
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ message: 'Your card was declined.' });
    expect(await balanceOfUser(server, erin)).toBe(5);
  });

  it('pays out only to a connected Stripe account', async () => {
    const payments = new StripePayments(stripeClient(stripeConfig), server.deps.db, stripeConfig.priceId);
    const bob = await buildUser(server);
    const mark = stripeApi.requests.length;
    await expect(payments.payout({ userId: bob.user._id, amountCents: 300, idempotencyKey: key() })).rejects.toMatchObject({
      status: 400,
      message: PAYOUTS_NOT_READY,
    });
    expect(since(mark).some((r) => r.path === '/v1/transfers')).toBe(false);

    const account = await stripeClient(stripeConfig).accounts.create({ type: 'express' });
    onboardAccount(stripeApi.objects, account.id);
    const payoutKey = key();
    const paid = await payments.payout({
      userId: bob.user._id,
      amountCents: 300,
      idempotencyKey: payoutKey,
      destination: { accountId: account.id },
    });
    expect(paid.reference).toMatch(/^tr_/);
    expect(stripeApi.requests.at(-1)).toMatchObject({
      path: '/v1/transfers',
      idempotencyKey: payoutKey,
      params: { amount: '300', currency: 'usd', destination: account.id },
    });
  });
});
