import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARD_BLOCKED } from '../../contract/texts.js';
import { LinkEntity } from '../links/entity.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { stripeClient } from '../payments/stripe-client.js';
import { startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { fixture, type StripeTestServer } from '../subscriptions/testing/stripe-server.js';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { buildUser, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { PaymentIntentEntity } from './entity.js';
import { resolvePendingPayments } from './intents.js';

/** Authorise, then capture where the gift lands, with PAYMENTS=stripe: the real SDK against the local Stripe test server. */
let app: StripeApp;
let stripeApi: StripeTestServer;
let server: TestServer;

beforeAll(async () => {
  app = await startStripeApp();
  ({ stripeApi, server } = app);
});
afterAll(() => app?.close());
afterEach(() => expectLedgerSoundIn(server.deps.db));

type Body = { new_balance?: number; authorisation?: string; error?: string; message?: string };

/** A user whose Stripe Customer has a saved card ending `last4`. */
async function withSavedCard(last4 = '4242'): Promise<TestUser> {
  const who = await buildUser(server);
  const customer = await stripeClient(app.stripeConfig).customers.create({ email: who.user.email });
  const methodId = `pm_test_${crypto.randomBytes(4).toString('hex')}`;
  const method = fixture('payment_method');
  stripeApi.objects.set(methodId, {
    ...method,
    id: methodId,
    customer: customer.id,
    card: { ...(method.card as Record<string, unknown>), last4, fingerprint: `fp${last4}` },
  });
  stripeApi.setCustomer(customer.id, { defaultPaymentMethod: methodId });
  await server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, { stripeCustomerId: customer.id }));
  return who;
}
async function receiveLink(owner: TestUser): Promise<string> {
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 100 } },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
const authorise = (who: TestUser, postId: string) =>
  server.request<Body>('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body: { amount: 5, for: { kind: 'give', postId, amount: 5 } },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
const give = (who: TestUser, postId: string, authorisation?: string) =>
  server.request<Body>('POST', '/statuses/api/gives', {
    token: who.token,
    body: { postId, amount: 5, authorisation },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
const stripeCalls = (path: RegExp) => stripeApi.requests.filter((r) => r.method === 'POST' && path.test(r.path));
const referenceOf = async (intentId: string) =>
  (await server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: intentId })).providerReference!;
const depositsOf = (who: TestUser) => server.deps.db.manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: who.user._id });

describe('authorise then capture with Stripe', () => {
  it('creates a manual-capture PaymentIntent, and captures it once the gift lands', async () => {
    const [owner, giver] = [await buildUser(server), await withSavedCard()];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, postId);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const create = stripeCalls(/^\/v1\/payment_intents$/).at(-1)!;
    expect(create.params).toMatchObject({ capture_method: 'manual', confirm: 'true', amount: '500' });
    const reference = await referenceOf(held.body.authorisation!);
    expect(stripeApi.objects.get(reference)?.status).toBe('requires_capture');
    expect(await depositsOf(giver)).toBe(0);

    expect((await give(giver, postId, held.body.authorisation)).status).toBe(201);
    expect(stripeApi.objects.get(reference)?.status).toBe('succeeded');
    const captures = stripeCalls(new RegExp(`^/v1/payment_intents/${reference}/capture$`));
    expect(captures).toHaveLength(1);
    expect(captures[0].idempotencyKey).toMatch(/:capture$/);
    expect(await depositsOf(giver)).toBe(1);
  });

  it('cancels the authorisation when the gift is refused: Stripe shows no capture', async () => {
    const [owner, giver] = [await buildUser(server), await withSavedCard()];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, postId);
    const reference = await referenceOf(held.body.authorisation!);
    // The link expires between the authorisation and the give.
    await server.deps.db.transaction((em) => em.update(LinkEntity, { id: postId }, { status: 'expired', closedAt: new Date() }));
    expect((await give(giver, postId, held.body.authorisation)).status).toBe(410);
    expect(stripeApi.objects.get(reference)?.status).toBe('canceled');
    expect(stripeCalls(new RegExp(`^/v1/payment_intents/${reference}/capture$`))).toHaveLength(0);
    expect(await depositsOf(giver)).toBe(0);
  });

  it('recovery cancels an orphan authorisation at Stripe', async () => {
    const [owner, giver] = [await buildUser(server), await withSavedCard()];
    const held = await authorise(giver, await receiveLink(owner));
    const reference = await referenceOf(held.body.authorisation!);
    await resolvePendingPayments(server.deps, new Date(Date.now() + 20 * 60_000));
    expect(stripeApi.objects.get(reference)?.status).toBe('canceled');
    expect((await server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: held.body.authorisation! })).status).toBe('failed');
  });

  it("answers Stripe's risk block (decline_code fraudulent) with a clear message, and moves nothing", async () => {
    const [owner, giver] = [await buildUser(server), await withSavedCard('0019')];
    const res = await authorise(giver, await receiveLink(owner));
    expect([res.status, res.body.error, res.body.message]).toEqual([402, 'card_blocked', CARD_BLOCKED]);
    expect(await depositsOf(giver)).toBe(0);
  });
});

describe('authorise then capture with Stripe Elements (a new card the page confirms)', () => {
  const stripe = () => stripeClient(app.stripeConfig);
  const start = (who: TestUser, postId: string) =>
    server.request<{ paymentIntentId: string; clientSecret: string }>('POST', '/api/wallet/card-deposit', {
      token: who.token,
      body: { amount: 5, elements: true, for: { kind: 'give', postId, amount: 5 } },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
  const confirm = (who: TestUser, paymentIntentId: string) =>
    server.request<Body>('POST', '/api/wallet/card-deposit/confirm', { token: who.token, body: { paymentIntentId } });

  it('creates a manual-capture PaymentIntent, answers the authorisation once Stripe.js confirms, captures where the gift lands', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const started = await start(giver, postId);
    expect(started.status).toBe(202);
    expect(stripeCalls(/^\/v1\/payment_intents$/).at(-1)!.params).toMatchObject({
      capture_method: 'manual',
      'metadata[purpose]': 'card_hold',
    });
    const { paymentIntentId } = started.body;
    await stripe().paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_visa' });
    expect(stripeApi.objects.get(paymentIntentId)?.status).toBe('requires_capture');
    const held = await confirm(giver, paymentIntentId);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.new_balance).toBe(0);
    expect(await depositsOf(giver)).toBe(0);
    expect((await give(giver, postId, held.body.authorisation)).status).toBe(201);
    expect(stripeApi.objects.get(paymentIntentId)?.status).toBe('succeeded');
    expect(await depositsOf(giver)).toBe(1);
  });

  it('a declined card moves nothing and lets the PaymentIntent go; an unconfirmed one is cancelled by recovery', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const declined = (await start(giver, postId)).body.paymentIntentId;
    await stripe()
      .paymentIntents.confirm(declined, { payment_method: 'pm_card_chargeDeclined' })
      .catch(() => undefined);
    const refused = await confirm(giver, declined);
    expect([refused.status, refused.body.error]).toEqual([402, 'card_declined']);
    expect(stripeApi.objects.get(declined)?.status).toBe('canceled');

    const orphan = (await start(giver, postId)).body.paymentIntentId;
    await stripe().paymentIntents.confirm(orphan, { payment_method: 'pm_card_visa' });
    await resolvePendingPayments(server.deps, new Date(Date.now() + 2 * 60_000));
    await resolvePendingPayments(server.deps, new Date(Date.now() + 30 * 60_000));
    expect(stripeApi.objects.get(orphan)?.status).toBe('canceled');
    expect(stripeCalls(new RegExp(`^/v1/payment_intents/${orphan}/capture$`))).toHaveLength(0);
    expect(await depositsOf(giver)).toBe(0);
  });
});
