import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeConfig } from '../config.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { StripeEventEntity, SubscriptionEntity } from './entity.js';
import { stripeClient } from '../payments/stripe-client.js';
import { startStripeApp, TEST_PRICE_ID as PRICE_ID, type StripeApp } from './testing/stripe-app.js';
import { fixture, type StripeTestServer } from './testing/stripe-server.js';
import { insertIncompleteStripeSubscription } from './testing/rows.js';

/**
 * Stripe's webhook, signed with the SDK's generateTestHeaderString: a valid signature is
 * processed, a bad one is a 400 that changes nothing, an event is applied once however often and
 * however concurrently it arrives, and late events never resurrect a canceled subscription; then
 * the whole card flow through the API with PAYMENTS=stripe.
 */
const DAY_MS = 86_400_000;

let app: StripeApp;
let stripeApi: StripeTestServer;
let server: TestServer;
let stripeConfig: StripeConfig;
let WEBHOOK_SECRET: string;

beforeAll(async () => {
  app = await startStripeApp();
  ({ stripeApi, server, stripeConfig, webhookSecret: WEBHOOK_SECRET } = app);
});

afterAll(async () => {
  await app?.close();
});

const since = (mark: number) => stripeApi.requests.slice(mark);

describe('POST /subscriptions/webhook', () => {
  const stripe = () => stripeClient(stripeConfig);
  let eventSeq = 0;

  /** A Stripe event around one of Stripe's objects, as its webhook sends it. */
  function event(type: string, object: Record<string, unknown>, id = `evt_test_${++eventSeq}_${crypto.randomBytes(4).toString('hex')}`) {
    return JSON.stringify({ ...fixture('event'), id, type, api_version: '2026-10-28.endive', data: { object } });
  }

  function invoiceObject(subscriptionId: string, periodEnd: Date) {
    const invoice = fixture('invoice');
    const end = Math.floor(periodEnd.getTime() / 1000);
    (invoice.lines as { data: Record<string, unknown>[] }).data[0].period = { start: end - 7 * 86_400, end };
    invoice.parent = {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: {}, subscription: subscriptionId },
    };
    invoice.status = 'paid';
    return invoice;
  }

  function subscriptionObject(subscriptionId: string, fields: Record<string, unknown>, periodEnd: Date) {
    const sub = fixture('subscription');
    const item = (sub.items as { data: Record<string, unknown>[] }).data[0];
    item.current_period_end = Math.floor(periodEnd.getTime() / 1000);
    return { ...sub, id: subscriptionId, ...fields };
  }

  const post = (payload: string, signature?: string) =>
    server.request<{ received?: boolean; outcome?: string; error?: string }>('POST', '/subscriptions/webhook', {
      body: payload,
      headers: signature === undefined ? {} : { 'stripe-signature': signature },
    });
  const signed = (payload: string, secret = WEBHOOK_SECRET) =>
    post(payload, stripe().webhooks.generateTestHeaderString({ payload, secret }));

  /** A user whose Stripe subscription waits for its first payment, as create-payment-intent leaves it. */
  async function incompleteSubscription(): Promise<{ who: TestUser; providerSubscriptionId: string }> {
    const who = await buildUser(server);
    const providerSubscriptionId = `sub_test_${crypto.randomBytes(6).toString('hex')}`;
    await insertIncompleteStripeSubscription(server.deps.db, who.user._id, providerSubscriptionId);
    return { who, providerSubscriptionId };
  }

  const subscriptionOf = (userId: string) => server.deps.db.manager.findOneByOrFail(SubscriptionEntity, { userId });
  const subscribedUntil = async (userId: string) =>
    (await server.deps.db.manager.findOneByOrFail(UserEntity, { id: userId })).subscribedUntil;
  const eventCount = (id: string) => server.deps.db.manager.countBy(StripeEventEntity, { id });

  it('a validly signed invoice.paid activates the subscription until the period it paid for', async () => {
    const { who, providerSubscriptionId } = await incompleteSubscription();
    const periodEnd = new Date(Date.now() + 7 * DAY_MS);
    const res = await signed(event('invoice.paid', invoiceObject(providerSubscriptionId, periodEnd)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'processed' });
    const sub = await subscriptionOf(who.user._id);
    expect(sub.status).toBe('active');
    expect(Math.floor(sub.currentPeriodEnd!.getTime() / 1000)).toBe(Math.floor(periodEnd.getTime() / 1000));
    expect((await subscribedUntil(who.user._id))?.getTime()).toBe(sub.currentPeriodEnd!.getTime());
    // Also under /api.
    const api = await server.request('POST', '/api/subscriptions/webhook', { body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(api.status).toBe(400);
  });

  it('a bad or missing signature is a 400 and changes nothing', async () => {
    const { who, providerSubscriptionId } = await incompleteSubscription();
    const payload = event('invoice.paid', invoiceObject(providerSubscriptionId, new Date(Date.now() + 7 * DAY_MS)), 'evt_forged_1');
    const otherSecret = await signed(payload, `whsec_${crypto.randomBytes(16).toString('hex')}`);
    expect(otherSecret.status).toBe(400);
    expect(otherSecret.body.error).toBe('bad_signature');
    // Signed, then tampered with.
    const header = stripe().webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await post(payload.replace('"paid"', '"open"'), header)).status).toBe(400);
    expect((await post(payload)).status).toBe(400);
    expect((await post(payload, 'garbage')).status).toBe(400);
    // Too old a timestamp (replayed capture): Stripe's 5-minute tolerance.
    const stale = stripe().webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await post(payload, stale)).status).toBe(400);

    expect(await eventCount('evt_forged_1')).toBe(0);
    expect((await subscriptionOf(who.user._id)).status).toBe('incomplete');
    expect(await subscribedUntil(who.user._id)).toBeNull();
  });

  it('the same event twice, and many times at once, is applied once', async () => {
    const { who, providerSubscriptionId } = await incompleteSubscription();
    const periodEnd = new Date(Date.now() + 7 * DAY_MS);
    const payload = event('invoice.paid', invoiceObject(providerSubscriptionId, periodEnd));
    expect((await signed(payload)).body.outcome).toBe('processed');
    expect((await signed(payload)).body).toEqual({ received: true, outcome: 'already processed' });

    // A second event, delivered to the API eight times concurrently: one processes it.
    const renewed = new Date(periodEnd.getTime() + 7 * DAY_MS);
    const renewal = event('invoice.paid', invoiceObject(providerSubscriptionId, renewed));
    const answers = await Promise.all(Array.from({ length: 8 }, () => signed(renewal)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const outcomes = answers.map((a) => a.body.outcome).sort();
    expect(outcomes.filter((o) => o === 'processed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already processed')).toHaveLength(7);
    const id = (JSON.parse(renewal) as { id: string }).id;
    expect(await eventCount(id)).toBe(1);
    expect((await subscriptionOf(who.user._id)).currentPeriodEnd?.getTime()).toBe(Math.floor(renewed.getTime() / 1000) * 1000);
  });

  it('customer.subscription.deleted, then a late invoice.paid or update: stays canceled, no benefits', async () => {
    const { who, providerSubscriptionId } = await incompleteSubscription();
    const periodEnd = new Date(Date.now() + 7 * DAY_MS);
    expect((await signed(event('invoice.paid', invoiceObject(providerSubscriptionId, periodEnd)))).body.outcome).toBe('processed');
    expect((await subscriptionOf(who.user._id)).status).toBe('active');

    const deleted = subscriptionObject(providerSubscriptionId, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) }, periodEnd);
    expect((await signed(event('customer.subscription.deleted', deleted))).body.outcome).toBe('processed');
    expect((await subscriptionOf(who.user._id)).status).toBe('canceled');
    expect(await subscribedUntil(who.user._id)).toBeNull();

    // Stripe retries and reorders: an older invoice.paid (a later period) and an 'active' update arrive late.
    const later = new Date(periodEnd.getTime() + 7 * DAY_MS);
    expect((await signed(event('invoice.paid', invoiceObject(providerSubscriptionId, later)))).status).toBe(200);
    const stale = subscriptionObject(providerSubscriptionId, { status: 'active', cancel_at_period_end: false }, later);
    expect((await signed(event('customer.subscription.updated', stale))).status).toBe(200);
    const sub = await subscriptionOf(who.user._id);
    expect(sub.status).toBe('canceled');
    expect(sub.currentPeriodEnd?.getTime()).toBeLessThan(later.getTime() - 1000);
    expect(await subscribedUntil(who.user._id)).toBeNull();
  });

  it('customer.subscription.updated with cancel_at_period_end keeps the benefits to the end; payment_failed stops them', async () => {
    const { who, providerSubscriptionId } = await incompleteSubscription();
    const periodEnd = new Date(Date.now() + 7 * DAY_MS);
    await signed(event('invoice.paid', invoiceObject(providerSubscriptionId, periodEnd)));
    const canceling = subscriptionObject(providerSubscriptionId, { status: 'active', cancel_at_period_end: true }, periodEnd);
    expect((await signed(event('customer.subscription.updated', canceling))).body.outcome).toBe('processed');
    let sub = await subscriptionOf(who.user._id);
    expect(sub).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await subscribedUntil(who.user._id)).not.toBeNull();

    const failed = invoiceObject(providerSubscriptionId, new Date(periodEnd.getTime() + 7 * DAY_MS));
    expect((await signed(event('invoice.payment_failed', { ...failed, status: 'open' }))).body.outcome).toBe('processed');
    sub = await subscriptionOf(who.user._id);
    expect(sub.status).toBe('past_due');
    expect(await subscribedUntil(who.user._id)).toBeNull();
  });

  it('other event types are recorded and ignored; only POST is allowed', async () => {
    const payload = event('customer.created', fixture('customer'));
    expect((await signed(payload)).body).toEqual({ received: true, outcome: 'ignored' });
    expect(await eventCount((JSON.parse(payload) as { id: string }).id)).toBe(1);
    const get = await server.request('GET', '/subscriptions/webhook');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('the card flow end to end with PAYMENTS=stripe', () => {
  const info = (who: TestUser) =>
    server.request<{ subscriptionInfo: { status: string | null; isSubscribed: boolean; cancelAtPeriodEnd: boolean } }>(
      'GET',
      `/subscriptions/get-subscription-info/${who.user._id}`,
      { token: who.token },
    );
  const signedPost = (payload: string) =>
    server.request<{ outcome?: string }>('POST', '/subscriptions/webhook', {
      body: payload,
      headers: { 'stripe-signature': stripeClient(stripeConfig).webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
    });
  const eventOf = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ ...fixture('event'), id: `evt_flow_${crypto.randomBytes(6).toString('hex')}`, type, data: { object } });

  it('subscribe with a confirmed PaymentIntent, cancel at period end, then Stripe deletes it and late events change nothing', async () => {
    const carol = await buildUser(server);
    const mark = stripeApi.requests.length;
    const started = await server.request<{ clientSecret: string }>('POST', '/subscriptions/create-payment-intent', {
      token: carol.token,
      body: { userId: carol.user._id, productId: 'giftlink-weekly' },
    });
    expect(started.status).toBe(200);
    const created = since(mark).find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
    expect(created).toMatchObject({ params: { payment_behavior: 'default_incomplete', 'items[0][price]': PRICE_ID } });
    expect(created?.idempotencyKey).toBeTruthy();
    const paymentIntentId = started.body.clientSecret.split('_secret_')[0];

    // Not confirmed yet: the server asks Stripe and refuses.
    const early = await server.request('POST', '/subscriptions/create-subscription', {
      token: carol.token,
      body: { userId: carol.user._id, productId: 'giftlink-weekly', paymentIntentId },
    });
    expect(early.status).toBe(402);
    expect((await info(carol)).body.subscriptionInfo.isSubscribed).toBe(false);

    stripeApi.succeed(paymentIntentId); // Stripe Elements confirmed the card
    const subscribed = await server.request<{ subscriptionId: string }>('POST', '/subscriptions/create-subscription', {
      token: carol.token,
      body: { userId: carol.user._id, productId: 'giftlink-weekly', paymentIntentId },
    });
    expect(subscribed.status).toBe(200);
    const providerSubscriptionId = (await server.deps.db.manager.findOneByOrFail(SubscriptionEntity, { userId: carol.user._id }))
      .providerSubscriptionId as string;
    expect((await info(carol)).body.subscriptionInfo).toMatchObject({ status: 'active', isSubscribed: true });

    const cancelMark = stripeApi.requests.length;
    const canceled = await server.request('POST', '/subscriptions/cancel', { token: carol.token, body: { userId: carol.user._id } });
    expect(canceled.status).toBe(200);
    expect(since(cancelMark).find((r) => r.path === `/v1/subscriptions/${providerSubscriptionId}` && r.method === 'POST')).toMatchObject({
      params: { cancel_at_period_end: 'true' },
    });
    expect(since(cancelMark).every((r) => r.method !== 'POST' || r.idempotencyKey)).toBe(true);
    expect((await info(carol)).body.subscriptionInfo).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, isSubscribed: true });

    // The period ends at Stripe: customer.subscription.deleted.
    const periodEnd = new Date(Date.now() + 7 * DAY_MS);
    const sub = fixture('subscription');
    (sub.items as { data: Record<string, unknown>[] }).data[0].current_period_end = Math.floor(periodEnd.getTime() / 1000);
    const deleted = { ...sub, id: providerSubscriptionId, status: 'canceled', cancel_at_period_end: false };
    expect((await signedPost(eventOf('customer.subscription.deleted', deleted))).body.outcome).toBe('processed');
    expect((await info(carol)).body.subscriptionInfo).toMatchObject({ status: 'canceled', isSubscribed: false });

    // Late, out of order: the renewal's invoice.paid and an 'active' update do not bring it back.
    const invoice = fixture('invoice');
    (invoice.lines as { data: Record<string, unknown>[] }).data[0].period = {
      start: 0,
      end: Math.floor(periodEnd.getTime() / 1000) + 7 * 86_400,
    };
    invoice.parent = { type: 'subscription_details', subscription_details: { metadata: {}, subscription: providerSubscriptionId } };
    expect((await signedPost(eventOf('invoice.paid', invoice))).status).toBe(200);
    expect((await signedPost(eventOf('customer.subscription.updated', { ...deleted, status: 'active' }))).status).toBe(200);
    expect((await info(carol)).body.subscriptionInfo).toMatchObject({ status: 'canceled', isSubscribed: false });
  });

  it('a past-due subscription replaced by a new one is cancelled at Stripe first, so its retries cannot charge', async () => {
    const dan = await buildUser(server);
    const body = { userId: dan.user._id, productId: 'giftlink-weekly' };
    const first = await server.request<{ clientSecret: string }>('POST', '/subscriptions/create-payment-intent', {
      token: dan.token,
      body,
    });
    const paymentIntentId = first.body.clientSecret.split('_secret_')[0];
    stripeApi.succeed(paymentIntentId);
    const subscribed = await server.request('POST', '/subscriptions/create-subscription', {
      token: dan.token,
      body: { ...body, paymentIntentId },
    });
    expect(subscribed.status).toBe(200);
    const old = (await server.deps.db.manager.findOneByOrFail(SubscriptionEntity, { userId: dan.user._id }))
      .providerSubscriptionId as string;

    // The renewal's payment fails at Stripe: past due, no benefits.
    const failed = fixture('invoice');
    failed.status = 'open';
    failed.parent = { type: 'subscription_details', subscription_details: { metadata: {}, subscription: old } };
    expect((await signedPost(eventOf('invoice.payment_failed', failed))).body.outcome).toBe('processed');
    expect((await info(dan)).body.subscriptionInfo).toMatchObject({ status: 'past_due', isSubscribed: false });

    // Starting again cancels the old subscription at Stripe before the new one is made.
    const mark = stripeApi.requests.length;
    const again = await server.request('POST', '/subscriptions/create-payment-intent', { token: dan.token, body });
    expect(again.status).toBe(200);
    const calls = since(mark).map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain(`DELETE /v1/subscriptions/${old}`);
    expect(calls.indexOf(`DELETE /v1/subscriptions/${old}`)).toBeLessThan(calls.indexOf('POST /v1/subscriptions'));
  });
});

describe('PAYMENTS=sandbox', () => {
  it('has no Stripe webhook and no Stripe in its Content-Security-Policy', async () => {
    const sandbox = await startTestServer();
    try {
      const res = await sandbox.request('POST', '/subscriptions/webhook', { body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-security-policy')).not.toContain('stripe.com');
    } finally {
      await sandbox.close();
    }
  });
});
