import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LedgerTransferEntity } from '../money/entity.js';
import { stripeClient } from '../payments/stripe-client.js';
import { startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { fixture, type StripeTestServer } from '../subscriptions/testing/stripe-server.js';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { buildUser, type TestServer, type TestUser } from '../testing/server.js';
import { CARD_PAYMENT_TIMEOUT_MS } from './card-elements.js';
import { PaymentIntentEntity } from './entity.js';
import { resolvePendingPayments } from './intents.js';

/**
 * The one-step gift's card deposit with Stripe Elements (PAYMENTS=stripe), against the local
 * Stripe-shaped server through the real `stripe` SDK: the page's confirm with Stripe.js is the
 * SDK's `paymentIntents.confirm` with Stripe's test payment methods.
 */
let app: StripeApp;
let stripeApi: StripeTestServer;
let server: TestServer;
let stripe: Stripe;

beforeAll(async () => {
  app = await startStripeApp();
  ({ stripeApi, server } = app);
  stripe = stripeClient(app.stripeConfig);
});
afterAll(() => app?.close());
afterEach(() => expectLedgerSoundIn(server.deps.db));

interface Started {
  paymentIntentId?: string;
  clientSecret?: string;
  new_balance?: number;
  error?: string;
  message?: string;
}

const start = (who: TestUser, key: string, body: Record<string, unknown> = {}) =>
  server.request<Started>('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body: { amount: 5, elements: true, ...body },
    headers: { 'Idempotency-Key': key },
  });
const confirm = (who: TestUser, paymentIntentId: string) =>
  server.request<{ new_balance?: number; error?: string; message?: string }>('POST', '/api/wallet/card-deposit/confirm', {
    token: who.token,
    body: { paymentIntentId },
  });
/** As Stripe.js confirms the card on the page. */
const payAtStripe = (id: string, paymentMethod = 'pm_card_visa') => stripe.paymentIntents.confirm(id, { payment_method: paymentMethod });
const balanceOf = async (who: TestUser) =>
  (await server.request<{ balance: number }>('GET', '/api/billing-settings-balance', { token: who.token })).body.balance;
const depositsOf = (who: TestUser) => server.deps.db.manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: who.user._id });
const intentsOf = (who: TestUser) => server.deps.db.manager.findBy(PaymentIntentEntity, { userId: who.user._id });
const piCreates = () => stripeApi.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

const WEBHOOK = '/subscriptions/webhook';
function succeededEvent(pi: Record<string, unknown>): string {
  const id = `evt_test_${crypto.randomBytes(6).toString('hex')}`;
  return JSON.stringify({ ...fixture('event'), id, type: 'payment_intent.succeeded', data: { object: pi } });
}
const deliver = (payload: string) =>
  server.request<{ outcome?: string }>('POST', WEBHOOK, {
    body: payload,
    headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: app.webhookSecret }) },
  });

async function started(who: TestUser, body: Record<string, unknown> = {}) {
  const res = await start(who, crypto.randomUUID(), body);
  expect(res.status).toBe(202);
  return res.body as { paymentIntentId: string; clientSecret: string };
}

describe('card deposit with Stripe Elements', () => {
  it('answers 202 with a PaymentIntent for the amount, moves nothing until confirmed, then credits once', async () => {
    const ana = await buildUser(server);
    const key = crypto.randomUUID();
    const res = await start(ana, key);
    expect(res.status).toBe(202);
    const { paymentIntentId, clientSecret } = res.body as { paymentIntentId: string; clientSecret: string };
    expect(clientSecret.startsWith(`${paymentIntentId}_secret_`)).toBe(true);
    const [intent] = await intentsOf(ana);
    expect(intent).toMatchObject({ kind: 'card_elements', status: 'pending', amountCents: 500, providerReference: paymentIntentId });
    const create = piCreates().find((r) => r.idempotencyKey === intent.idempotencyKey);
    expect(create?.params).toMatchObject({
      amount: '500',
      currency: 'usd',
      'metadata[userId]': ana.user._id,
      'metadata[intentId]': intent.id,
      'metadata[purpose]': 'card_deposit',
    });
    expect(create?.params.setup_future_usage).toBeUndefined();
    // The secret is not stored anywhere of ours.
    expect(JSON.stringify(await intentsOf(ana))).not.toContain(clientSecret);
    expect(await balanceOf(ana)).toBe(0);

    await payAtStripe(paymentIntentId);
    const done = await confirm(ana, paymentIntentId);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ new_balance: 5 });
    const twice = await confirm(ana, paymentIntentId);
    expect(twice.body).toEqual({ new_balance: 5 });
    expect(await balanceOf(ana)).toBe(5);
    expect(await depositsOf(ana)).toBe(1);
    expect((await intentsOf(ana)).map((i) => i.status)).toEqual(['succeeded']);
  });

  it('answers a retry of the key with the same PaymentIntent (read again from Stripe), never a second one', async () => {
    const ben = await buildUser(server);
    const key = crypto.randomUUID();
    const first = await start(ben, key);
    const creates = piCreates().length;
    const retrieves = stripeApi.requests.filter(
      (r) => r.method === 'GET' && r.path === `/v1/payment_intents/${first.body.paymentIntentId}`,
    );
    const again = await start(ben, key);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(piCreates().length).toBe(creates);
    expect(
      stripeApi.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${first.body.paymentIntentId}`).length,
    ).toBe(retrieves.length + 1);
    expect(await intentsOf(ben)).toHaveLength(1);
    // Once paid, the key answers the deposit.
    await payAtStripe(first.body.paymentIntentId!);
    expect((await confirm(ben, first.body.paymentIntentId!)).status).toBe(200);
    const after = await start(ben, key);
    expect([after.status, after.body]).toEqual([200, { new_balance: 5 }]);
    expect(await depositsOf(ben)).toBe(1);
  });

  it('credits once when the confirm and the webhook race, and when the confirm comes twice at once', async () => {
    const cy = await buildUser(server);
    const { paymentIntentId } = await started(cy);
    const paid = await payAtStripe(paymentIntentId);
    const event = succeededEvent(paid as unknown as Record<string, unknown>);
    const [a, b, hook] = await Promise.all([confirm(cy, paymentIntentId), confirm(cy, paymentIntentId), deliver(event)]);
    expect([a.status, b.status, hook.status]).toEqual([200, 200, 200]);
    expect(a.body).toEqual({ new_balance: 5 });
    expect(b.body).toEqual({ new_balance: 5 });
    expect(await balanceOf(cy)).toBe(5);
    expect(await depositsOf(cy)).toBe(1);
    // The webhook alone settles a deposit the page never confirmed with us.
    const { paymentIntentId: second } = await started(cy, { amount: 2 });
    const hook2 = await deliver(succeededEvent((await payAtStripe(second)) as unknown as Record<string, unknown>));
    expect(hook2.body.outcome).toBe('processed');
    expect(await balanceOf(cy)).toBe(7);
    expect((await confirm(cy, second)).body).toEqual({ new_balance: 7 });
    expect(await depositsOf(cy)).toBe(2);
  });

  it('answers a declined card 402 with the decline text, cancels the PaymentIntent and moves nothing', async () => {
    const dee = await buildUser(server);
    const { paymentIntentId } = await started(dee);
    await expect(payAtStripe(paymentIntentId, 'pm_card_chargeDeclined')).rejects.toMatchObject({ code: 'card_declined' });
    const res = await confirm(dee, paymentIntentId);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: 'card_declined', message: 'Your card was declined.' });
    expect(stripeApi.objects.get(paymentIntentId)?.status).toBe('canceled');
    expect((await intentsOf(dee)).map((i) => i.status)).toEqual(['failed']);
    expect(await depositsOf(dee)).toBe(0);
    expect(await balanceOf(dee)).toBe(0);
    // The next attempt (a fresh key) is a new PaymentIntent, and pays.
    const next = await started(dee);
    expect(next.paymentIntentId).not.toBe(paymentIntentId);
    await payAtStripe(next.paymentIntentId);
    expect((await confirm(dee, next.paymentIntentId)).body).toEqual({ new_balance: 5 });
  });

  it("answers 404 for someone else's PaymentIntent, and 409 while the bank is still deciding", async () => {
    const eve = await buildUser(server);
    const fay = await buildUser(server);
    const { paymentIntentId } = await started(eve);
    await payAtStripe(paymentIntentId);
    const theirs = await confirm(fay, paymentIntentId);
    expect(theirs.status).toBe(404);
    expect((await confirm(fay, 'pi_unknown')).status).toBe(404);
    expect(await depositsOf(eve)).toBe(0);

    const pending = await started(eve, { amount: 3 });
    stripeApi.process(pending.paymentIntentId);
    const processing = await confirm(eve, pending.paymentIntentId);
    expect(processing.status).toBe(409);
    expect(processing.body).toMatchObject({
      error: 'payment_processing',
      message: 'Payment processing completed, but status is unclear. Please contact support.',
    });
    expect((await intentsOf(eve)).find((i) => i.providerReference === pending.paymentIntentId)?.status).toBe('pending');
    expect(await depositsOf(eve)).toBe(0);
  });

  it('saves the card when asked: the next gift can use it (its last 4 digits)', async () => {
    const gus = await buildUser(server);
    const { paymentIntentId } = await started(gus, { save: true });
    const create = piCreates().at(-1);
    expect(create?.params).toMatchObject({ setup_future_usage: 'off_session' });
    expect(create?.params.customer).toMatch(/^cus_/);
    await payAtStripe(paymentIntentId);
    expect((await confirm(gus, paymentIntentId)).status).toBe(200);
    const card = await server.request<{ card: { last4: string } | null }>('GET', '/api/wallet/card', { token: gus.token });
    expect(card.body.card).toEqual({ last4: '4242' });
  });

  it('recovery cancels a PaymentIntent unconfirmed after an hour and never credits it; it settles a paid one', async () => {
    const hal = await buildUser(server);
    const stale = await started(hal);
    const paid = await started(hal, { amount: 2 });
    await payAtStripe(paid.paymentIntentId);
    const now = new Date(Date.now() + 2 * 60_000);
    const soon = await resolvePendingPayments(server.deps, now);
    expect(soon.unresolved).toBeGreaterThanOrEqual(1);
    expect(stripeApi.objects.get(stale.paymentIntentId)?.status).toBe('requires_payment_method');
    expect(await balanceOf(hal)).toBe(2);

    await resolvePendingPayments(server.deps, new Date(Date.now() + CARD_PAYMENT_TIMEOUT_MS + 60_000));
    expect(stripeApi.objects.get(stale.paymentIntentId)?.status).toBe('canceled');
    const intents = await intentsOf(hal);
    expect(intents.find((i) => i.providerReference === stale.paymentIntentId)?.status).toBe('failed');
    // Its secret can no longer pay, and a late confirm moves nothing.
    await expect(payAtStripe(stale.paymentIntentId)).rejects.toThrow();
    expect((await confirm(hal, stale.paymentIntentId)).status).toBe(402);
    expect(await depositsOf(hal)).toBe(1);
    expect(await balanceOf(hal)).toBe(2);
  });

  it('is refused with the sandbox card form details, and without an Idempotency-Key', async () => {
    const ida = await buildUser(server);
    const both = await start(ida, crypto.randomUUID(), { card: { number: '4242424242424242', expiry: '12/40', cvc: '123' } });
    expect([both.status, both.body.error]).toEqual([400, 'invalid_card']);
    const keyless = await server.request('POST', '/api/wallet/card-deposit', { token: ida.token, body: { amount: 5, elements: true } });
    expect(keyless.status).toBe(400);
    expect(await intentsOf(ida)).toHaveLength(0);
  });
});
