import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkVisitorEntity } from '../links/entity.js';
import { PushSubscriptionEntity } from '../push/entity.js';
import { startPushService, type TestPushService } from '../push/testing.js';
import { readyStripePayoutsFor, startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import type { StripeTestServer } from '../subscriptions/testing/stripe-server.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { stripeClient } from './stripe-client.js';

/** Removing the saved card, and closing the account, with PAYMENTS=stripe: the real SDK against the local Stripe server. */
let app: StripeApp;
let stripeApi: StripeTestServer;
let server: TestServer;
let stripe: Stripe;
let push: TestPushService;
beforeAll(async () => {
  push = await startPushService();
  app = await startStripeApp({ PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' });
  ({ stripeApi, server } = app);
  stripe = stripeClient(app.stripeConfig);
});
afterAll(async () => {
  await app?.close();
  await push?.close();
});

type Body = { paymentIntentId?: string; card?: { last4: string } | null };
const savedCard = async (who: TestUser) => (await server.request<Body>('GET', '/api/wallet/card', { token: who.token })).body.card;
const removeCard = (who?: TestUser) => server.request<Body>('DELETE', '/api/wallet/card', { token: who?.token });
const customerIdOf = async (who: TestUser) =>
  (await server.deps.db.manager.findOneByOrFail(UserEntity, { id: who.user._id })).stripeCustomerId;
/** The cards attached to the Customer, as Stripe lists them. */
const cardsAt = async (customerId: string) => (await stripe.customers.listPaymentMethods(customerId, { type: 'card' })).data;

/** A $5 deposit by Stripe Elements with 'Save this card': the card stays on the user's Customer. */
async function withSavedCard(): Promise<TestUser> {
  const who = await buildUser(server);
  const started = await server.request<Body>('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body: { amount: 5, elements: true, save: true },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(started.status).toBe(202);
  const paymentIntentId = started.body.paymentIntentId!;
  await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_visa' });
  expect((await server.request('POST', '/api/wallet/card-deposit/confirm', { token: who.token, body: { paymentIntentId } })).status).toBe(
    200,
  );
  expect(await savedCard(who)).toEqual({ last4: '4242' });
  return who;
}

describe('removing the saved card (Stripe)', () => {
  it('detaches the PaymentMethod at Stripe and answers the card state: none', async () => {
    const ann = await withSavedCard();
    const customerId = (await customerIdOf(ann))!;
    const [card] = await cardsAt(customerId);
    const res = await removeCard(ann);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ card: null });
    expect(stripeApi.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payment_methods/${card.id}/detach`)).toHaveLength(1);
    expect(await cardsAt(customerId)).toEqual([]);
    expect((await stripe.paymentMethods.retrieve(card.id)).customer).toBeNull();
    expect(await savedCard(ann)).toBeNull();
  });

  it("leaves another user's card attached, and a visitor gets 401", async () => {
    const [bea, cal] = [await withSavedCard(), await withSavedCard()];
    expect((await removeCard(bea)).status).toBe(200);
    expect(await cardsAt((await customerIdOf(cal))!)).toHaveLength(1);
    expect(await savedCard(cal)).toEqual({ last4: '4242' });
    expect((await removeCard()).status).toBe(401);
    expect(await savedCard(cal)).toEqual({ last4: '4242' });
  });
});

describe('closing the account (Stripe)', () => {
  it('deletes the Customer at Stripe with its card, the push subscriptions and the link visits; not those of others', async () => {
    const [eve, fay, owner] = [await withSavedCard(), await withSavedCard(), await buildUser(server)];
    const link = await server.request('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
    });
    expect(link.status).toBe(201);
    for (const who of [eve, fay]) {
      expect(
        (await server.request('POST', '/api/push/subscriptions', { token: who.token, body: push.browser().subscription })).status,
      ).toBe(201);
      expect((await server.request('POST', `/links/${owner.user.username}`, { token: who.token, body: {} })).status).toBe(200);
    }
    const customerId = (await customerIdOf(eve))!;
    const [card] = await cardsAt(customerId);
    // Closing asks for the balance the card deposit made to be withdrawn first.
    await readyStripePayoutsFor(app, eve);
    expect((await server.request('POST', '/api/billing-settings-withdrawal', { token: eve.token, body: { balance: 5 } })).status).toBe(200);

    const closed = await server.request('POST', '/api/account/delete', { token: eve.token, body: { password: eve.password } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    expect(stripeApi.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/customers/${customerId}`)).toHaveLength(1);
    expect(await stripe.customers.retrieve(customerId)).toMatchObject({ id: customerId, deleted: true });
    expect((await stripe.paymentMethods.retrieve(card.id)).customer).toBeNull();
    expect(await customerIdOf(eve)).toBeNull();
    expect(await server.deps.db.manager.countBy(PushSubscriptionEntity, { userId: eve.user._id })).toBe(0);
    expect(await server.deps.db.manager.countBy(LinkVisitorEntity, { visitorKey: `u:${eve.user._id}` })).toBe(0);
    // Fay's are untouched.
    expect(await savedCard(fay)).toEqual({ last4: '4242' });
    expect(await stripe.customers.retrieve((await customerIdOf(fay))!)).not.toHaveProperty('deleted');
    expect(await server.deps.db.manager.countBy(PushSubscriptionEntity, { userId: fay.user._id })).toBe(1);
    expect(await server.deps.db.manager.countBy(LinkVisitorEntity, { visitorKey: `u:${fay.user._id}` })).toBe(1);
    await expectLedgerSound(server.deps.db);
  });
});
