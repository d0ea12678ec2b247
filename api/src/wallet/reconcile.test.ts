import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../payments/stripe-client.js';
import { startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { reconcileWithProvider } from './reconcile.js';

/** The provider's records against the ledger: a charge without its credit is found, and named. */
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };

const cardDeposit = (server: TestServer, who: TestUser, body: Record<string, unknown>) =>
  server.request<{ authorisation?: string }>('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body,
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });

describe('reconciliation with the sandbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  const reconcile = () => reconcileWithProvider({ db: server.deps.db, payments: server.deps.payments });

  it('passes when every charge has its credit, and names a charge the ledger never credited', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    expect((await cardDeposit(server, giver, { amount: 12, card: PAYS })).status).toBe(200);
    const link = await server.request<{ id: string }>('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 100 } },
    });
    const held = await cardDeposit(server, giver, { amount: 5, card: PAYS, for: { kind: 'give', postId: link.body.id, amount: 17 } });
    const gave = await server.request('POST', '/statuses/api/gives', {
      token: giver.token,
      body: { postId: link.body.id, amount: 17, authorisation: held.body.authorisation },
    });
    expect(gave.status).toBe(201);
    // An authorisation let go is no charge.
    await cardDeposit(server, giver, { amount: 5, card: PAYS, for: { kind: 'give', postId: link.body.id, amount: 5 } });
    expect(await reconcile()).toEqual([]);

    // The provider's side only: a charge taken with no payment of ours recorded.
    const orphan = await server.deps.payments.chargeCard({
      userId: giver.user._id,
      amountCents: 6800,
      idempotencyKey: `giftlink:card_deposit:${crypto.randomUUID()}`,
      source: { kind: 'card', card: PAYS, save: false },
    });
    expect(await reconcile()).toEqual([{ reference: orphan.reference, problem: 'the provider took $68.00 and the ledger credited $0.00' }]);
    await expectLedgerSound(server.deps.db);
  });
});

describe('reconciliation with Stripe (its list endpoints)', () => {
  let app: StripeApp;
  beforeAll(async () => {
    app = await startStripeApp();
  });
  afterAll(() => app?.close());

  it('reads PaymentIntents and refunds from Stripe; finds a succeeded one without its credit', async () => {
    const { server, stripeApi } = app;
    const stripe = stripeClient(app.stripeConfig);
    const who = await buildUser(server);
    const customer = await stripe.customers.create({ email: who.user.email });
    stripeApi.setCustomer(customer.id, { defaultPaymentMethod: 'pm_card_visa' });
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, { stripeCustomerId: customer.id }));
    expect((await server.request('POST', '/api/billing-settings-deposit', { token: who.token, body: { balance: 9 } })).status).toBe(200);
    const reconcile = () => reconcileWithProvider({ db: server.deps.db, payments: server.deps.payments });
    expect(await reconcile()).toEqual([]);
    expect(stripeApi.requests.some((r) => r.method === 'GET' && r.path === '/v1/payment_intents')).toBe(true);

    const orphan = await stripe.paymentIntents.create({
      amount: 4400,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      metadata: { purpose: 'card_deposit' },
    });
    expect(await reconcile()).toEqual([{ reference: orphan.id, problem: 'the provider took $44.00 and the ledger credited $0.00' }]);
  });
});
