import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalanceResponse } from '../../contract/wallet.js';
import { GIFT_REVERSED } from '../../contract/texts.js';
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox.js';
import { stripeClient } from '../payments/stripe-client.js';
import { readyStripePayoutsFor, startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { disputeObject } from '../subscriptions/testing/stripe-disputes.js';
import { fixture } from '../subscriptions/testing/stripe-server.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

/**
 * Money out, the whole way, on each provider: a new user sets up payouts, receives a gift paid by
 * card, sees it on hold, withdraws it once available; another card payment is disputed and its
 * gift taken back; the ledger stays sound throughout.
 */

const HOUR = 60 * 60 * 1000;
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const DISPUTED = { number: '4000 0000 0000 0259', expiry: '12/40', cvc: '123' };

interface Journey {
  server: TestServer;
  /** Moves the server's clock on. */
  later(ms: number): void;
  readyPayouts(who: TestUser): Promise<void>;
  /** A card deposit of `dollars`, with `card` where the provider takes one from us: answers the payment's reference. */
  cardDeposit(who: TestUser, dollars: number, card: typeof PAYS): Promise<string>;
  /** A gift of `dollars` to `postId` in one step, paid by `card` (authorised for the gift, given with it): answers the payment's reference and the thread. */
  cardGift(who: TestUser, postId: string, dollars: number, card: typeof PAYS): Promise<{ reference: string; thread: string }>;
  /** The bank disputes the payment `reference`. */
  dispute(reference: string, cents: number): Promise<void>;
}

const balance = async (j: Journey, who: TestUser) =>
  (await j.server.request<BalanceResponse>('GET', '/api/billing-settings-balance', { token: who.token })).body;

async function give(j: Journey, giver: TestUser, postId: string, dollars: number, authorisation?: string): Promise<string> {
  const res = await j.server.request('POST', '/statuses/api/gives', {
    token: giver.token,
    body: { postId, amount: dollars, authorisation },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(res.status).toBe(201);
  return (res.body as { conversationId: string }).conversationId;
}

async function journey(j: Journey): Promise<void> {
  const newbie = await buildUser(j.server);
  const friend = await buildUser(j.server);
  const stranger = await buildUser(j.server);
  await j.readyPayouts(newbie);
  const link = await j.server.request('POST', '/links/create', {
    token: newbie.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 20 } },
  });
  const postId = (link.body as { id: string }).id;

  await j.cardDeposit(friend, 8, PAYS);
  await give(j, friend, postId, 8);
  expect(await balance(j, newbie)).toMatchObject({ balance: 8, available: 0, onHold: 8 });
  const early = await j.server.request('POST', '/api/billing-settings-withdrawal', { token: newbie.token, body: { balance: 8 } });
  expect(early.status).toBe(400);
  expect(early.body.error).toBe('funds_on_hold');
  expect((await balance(j, newbie)).balance).toBe(8);
  await expectLedgerSound(j.server.deps.db);

  j.later(HOUR + 1000);
  expect(await balance(j, newbie)).toMatchObject({ balance: 8, available: 8, onHold: 0 });
  const out = await j.server.request('POST', '/api/billing-settings-withdrawal', {
    token: newbie.token,
    body: { balance: 8 },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(out.status).toBe(200);
  expect((await balance(j, newbie)).balance).toBe(0);
  const history = await j.server.request('GET', '/api/wallet/history', { token: newbie.token });
  expect(JSON.stringify(history.body)).toContain('6789');
  await expectLedgerSound(j.server.deps.db);

  // A stolen card pays for an anonymous gift: the bank's dispute takes it back from the recipient while it is on hold.
  const { reference, thread } = await j.cardGift(stranger, postId, 5, DISPUTED);
  expect(await balance(j, newbie)).toMatchObject({ balance: 5, available: 0, onHold: 5 });
  await j.dispute(reference, 500);
  expect(await balance(j, newbie)).toMatchObject({ balance: 0, onHold: 0 });
  expect(await balance(j, stranger)).toMatchObject({ balance: 0 });
  const page = await j.server.request('GET', `/messages/${thread}?page=1`, { token: newbie.token });
  expect((page.body as { messages: { text: string }[] }).messages.map((m) => m.text)).toContain(GIFT_REVERSED);
  await expectLedgerSound(j.server.deps.db);
}

describe('money out, the whole way, in the sandbox', () => {
  let server: TestServer;
  let offset = 0;
  beforeAll(async () => {
    server = await startTestServer({ FUNDS_HOLD_HOURS: '1' });
    server.deps.clock = () => new Date(Date.now() + offset);
  });
  afterAll(() => server?.close());

  it('sets up payouts, holds a gift, withdraws it once available, and takes a disputed card payment back', async () => {
    await journey({
      server,
      later: (ms) => (offset += ms),
      readyPayouts: (who) => readyPayoutsFor(server, who),
      async cardDeposit(who, dollars, card) {
        const res = await server.request('POST', '/api/wallet/card-deposit', {
          token: who.token,
          body: { amount: dollars, card },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        });
        expect(res.status).toBe(200);
        return '';
      },
      async cardGift(who, postId, dollars, card) {
        const held = await server.request<{ authorisation: string }>('POST', '/api/wallet/card-deposit', {
          token: who.token,
          body: { amount: dollars, card, for: { kind: 'give', postId, amount: dollars } },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        });
        expect(held.status).toBe(200);
        return { reference: '', thread: await give(this, who, postId, dollars, held.body.authorisation) };
      },
      async dispute() {
        expect(await disputeSandboxCharges(server.deps, new Date(Date.now() + offset + SANDBOX_DISPUTE_AFTER_MS + 1000))).toBe(1);
      },
    });
  });
});

describe('money out, the whole way, with Stripe', () => {
  let app: StripeApp;
  let stripe: Stripe;
  let offset = 0;
  beforeAll(async () => {
    app = await startStripeApp({ FUNDS_HOLD_HOURS: '1' });
    app.server.deps.clock = () => new Date(Date.now() + offset);
    stripe = stripeClient(app.stripeConfig);
  });
  afterAll(() => app?.close());

  it('sets up payouts through Connect, holds a gift, transfers it once available, and takes a disputed payment back', async () => {
    const transfersBefore = [...app.stripeApi.objects.values()].filter((o) => o.object === 'transfer').length;
    await journey({
      server: app.server,
      later: (ms) => (offset += ms),
      readyPayouts: (who) => readyStripePayoutsFor(app, who),
      // Stripe Elements: the page confirms the PaymentIntent at Stripe, the server reads it back.
      async cardDeposit(who, dollars) {
        const started = await app.server.request('POST', '/api/wallet/card-deposit', {
          token: who.token,
          body: { amount: dollars, elements: true },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        });
        expect(started.status).toBe(202);
        const { paymentIntentId } = started.body as { paymentIntentId: string };
        await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_visa' });
        const confirmed = await app.server.request('POST', '/api/wallet/card-deposit/confirm', {
          token: who.token,
          body: { paymentIntentId },
        });
        expect(confirmed.status).toBe(200);
        return paymentIntentId;
      },
      async cardGift(who, postId, dollars) {
        const started = await app.server.request<{ paymentIntentId: string }>('POST', '/api/wallet/card-deposit', {
          token: who.token,
          body: { amount: dollars, elements: true, for: { kind: 'give', postId, amount: dollars } },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        });
        expect(started.status).toBe(202);
        const { paymentIntentId } = started.body;
        await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_visa' });
        const confirmed = await app.server.request<{ authorisation: string }>('POST', '/api/wallet/card-deposit/confirm', {
          token: who.token,
          body: { paymentIntentId },
        });
        expect(confirmed.status).toBe(200);
        return { reference: paymentIntentId, thread: await give(this, who, postId, dollars, confirmed.body.authorisation) };
      },
      async dispute(reference, cents) {
        const payload = JSON.stringify({
          ...fixture('event'),
          id: `evt_test_${crypto.randomBytes(6).toString('hex')}`,
          type: 'charge.dispute.created',
          data: { object: disputeObject(reference, cents) },
        });
        const res = await app.server.request<{ outcome?: string }>('POST', '/subscriptions/webhook', {
          body: payload,
          headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: app.webhookSecret }) },
        });
        expect(res.body.outcome).toBe('processed');
      },
    });
    // The withdrawal went out as one Transfer to the connected account.
    const transfers = [...app.stripeApi.objects.values()].filter((o) => o.object === 'transfer');
    expect(transfers.length - transfersBefore).toBe(1);
    expect(transfers.at(-1)).toMatchObject({ amount: 800, destination: expect.stringMatching(/^acct_/) });
  });
});
