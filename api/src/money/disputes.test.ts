import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../payments/stripe-client.js';
import { connectClient } from '../realtime/testing.js';
import { readyStripePayoutsFor, startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { disputeObject } from '../subscriptions/testing/stripe-disputes.js';
import { fixture } from '../subscriptions/testing/stripe-server.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, giveToNewLink, type TestServer, type TestUser } from '../testing/server.js';
import { GIFT_REVERSED } from '../../contract/texts.js';
import type { BalanceResponse } from '../../contract/wallet.js';
import { balanceOf as ledgerBalance, SYSTEM_LOSSES, SYSTEM_UNCLAIMED } from './ledger.js';

/**
 * Disputes of card payments (PAYMENTS=stripe), delivered as Stripe's signed webhook events to the
 * app, whose deposits go through the real `stripe` SDK against the local Stripe test server.
 */
const HOUR = 3_600_000;
let app: StripeApp;
let server: TestServer;
let stripe: Stripe;
let offset = 0;

beforeAll(async () => {
  app = await startStripeApp({ FUNDS_HOLD_HOURS: '1' });
  server = app.server;
  server.deps.clock = () => new Date(Date.now() + offset);
  stripe = stripeClient(app.stripeConfig);
});
afterAll(() => app?.close());
afterEach(() => expectLedgerSound(server.deps.db));

const balance = async (who: TestUser) =>
  (await server.request<BalanceResponse>('GET', '/api/billing-settings-balance', { token: who.token })).body;

/** A card deposit with Stripe Elements, paid at 'Stripe': answers its PaymentIntent's id (and the balance after, in `last`). */
const last = { newBalance: NaN };
async function cardDeposit(who: TestUser, dollars: number): Promise<string> {
  const started = await server.request('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body: { amount: dollars, elements: true },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(started.status).toBe(202);
  const { paymentIntentId } = started.body as { paymentIntentId: string };
  await stripe.paymentIntents.confirm(paymentIntentId, { payment_method: 'pm_card_visa' });
  const confirmed = await server.request('POST', '/api/wallet/card-deposit/confirm', { token: who.token, body: { paymentIntentId } });
  expect(confirmed.status).toBe(200);
  last.newBalance = (confirmed.body as { new_balance: number }).new_balance;
  return paymentIntentId;
}

const giveAnonymously = (giver: TestUser, recipient: TestUser, dollars: number) => giveToNewLink(server, giver, recipient, dollars);

/** `giver` gives by name: a give link of theirs that `recipient` accepts; answers the named thread. */
async function giveByName(giver: TestUser, recipient: TestUser, dollars: number): Promise<string> {
  const link = await server.request('POST', '/links/create', {
    token: giver.token,
    body: { details: { giveorreceive: 'give', type: 'currency', amount: dollars, initialQuantity: 1 } },
  });
  expect(link.status).toBe(201);
  const accepted = await server.request('PUT', '/api/accept-link', {
    token: recipient.token,
    body: { linkCreatorUsername: giver.user.username, linkResponderUsername: recipient.user.username },
  });
  expect(accepted.status).toBe(200);
  return (accepted.body as { conversationId: string }).conversationId;
}

function disputeEvent(type: 'charge.dispute.created' | 'charge.dispute.closed', dispute: Record<string, unknown>): string {
  return JSON.stringify({ ...fixture('event'), id: `evt_test_${crypto.randomBytes(6).toString('hex')}`, type, data: { object: dispute } });
}
const deliver = (payload: string) =>
  server.request<{ outcome?: string }>('POST', '/subscriptions/webhook', {
    body: payload,
    headers: { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: app.webhookSecret }) },
  });

const threadTexts = async (who: TestUser, conversationId: string) =>
  (
    (await server.request('GET', `/messages/${conversationId}?page=1`, { token: who.token })).body as { messages: { text: string }[] }
  ).messages.map((m) => m.text);
const losses = () => ledgerBalance(server.deps.db.manager, SYSTEM_LOSSES);

describe('a disputed card payment', () => {
  it('is taken from the payer, then from the gift it paid by name while on hold; once; and given back when the dispute is won', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const pi = await cardDeposit(payer, 10);
    const thread = await giveByName(payer, recipient, 6);
    const lostBefore = await losses();
    const live = await connectClient(server, { token: recipient.token });

    const dispute = disputeObject(pi, 1000);
    const created = disputeEvent('charge.dispute.created', dispute);
    expect((await deliver(created)).body.outcome).toBe('processed');
    // The recipient's open app is told at once.
    await live.waitFor('new-message', (e) => e.message.text === GIFT_REVERSED);
    live.close();
    expect(await balance(payer)).toMatchObject({ balance: 0 });
    expect(await balance(recipient)).toMatchObject({ balance: 0, onHold: 0 });
    expect(await losses()).toBe(lostBefore);
    const texts = await threadTexts(recipient, thread);
    expect(texts.filter((t) => t === GIFT_REVERSED)).toHaveLength(1);
    // Nothing in what the recipient reads names the giver.
    expect(JSON.stringify(await server.request('GET', `/messages/${thread}?page=1`, { token: recipient.token }))).not.toContain(
      payer.user.username,
    );

    // The same event again, and another event of the same dispute: nothing more.
    expect((await deliver(created)).body.outcome).toBe('already processed');
    expect((await deliver(disputeEvent('charge.dispute.created', dispute))).body.outcome).toBe('ignored');
    expect(await balance(payer)).toMatchObject({ balance: 0 });

    // Won: each gets back what was taken, and the recipient's thread is told once only.
    const won = disputeEvent('charge.dispute.closed', { ...dispute, status: 'won' });
    expect((await deliver(won)).body.outcome).toBe('processed');
    expect((await deliver(won)).body.outcome).toBe('already processed');
    expect(await balance(payer)).toMatchObject({ balance: 4 });
    expect(await balance(recipient)).toMatchObject({ balance: 6 });
    expect((await threadTexts(recipient, thread)).filter((t) => t === GIFT_REVERSED)).toHaveLength(1);
  });

  it('never follows a payment made by name into an anonymous gift: what the recipient keeps cannot tell who gave', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const pi = await cardDeposit(payer, 10);
    const thread = await giveAnonymously(payer, recipient, 6);
    const lostBefore = await losses();
    expect((await deliver(disputeEvent('charge.dispute.created', disputeObject(pi, 1000)))).body.outcome).toBe('processed');
    // The payer's own $4 goes back; the other $6 is the platform's loss, owed by the payer.
    expect(await balance(payer)).toMatchObject({ balance: 0, owed: 6 });
    expect(await losses()).toBe(lostBefore - 600);
    expect(await balance(recipient)).toMatchObject({ balance: 6, onHold: 6 });
    expect(await threadTexts(recipient, thread)).not.toContain(GIFT_REVERSED);
  });

  it('books what neither the payer nor held money covers to losses; the payer owes it and cannot give, buy or withdraw until a deposit covers it', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const pi = await cardDeposit(payer, 10);
    await giveAnonymously(payer, recipient, 6);
    // The gift's hold ends and the recipient gives it on as money of their own: the dispute can take only the payer's $4.
    offset += HOUR + 1000;
    await giveAnonymously(recipient, await buildUser(server), 6);
    const lostBefore = await losses();
    expect((await deliver(disputeEvent('charge.dispute.created', disputeObject(pi, 1000)))).body.outcome).toBe('processed');
    expect(await balance(payer)).toMatchObject({ balance: 0 });
    expect(await losses()).toBe(lostBefore - 600);
    const history = await server.request('GET', '/api/wallet/history?limit=10', { token: payer.token });
    expect(JSON.stringify(history.body)).toContain('"kind":"dispute"');

    const other = await buildUser(server);
    const link = await server.request('POST', '/links/create', {
      token: other.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 1, quantity: 1 } },
    });
    await cardDeposit(payer, 8);
    // The deposit paid the $6 owed first.
    expect(last.newBalance).toBe(2);
    expect(await losses()).toBe(lostBefore);
    const give = await server.request('POST', '/statuses/api/gives', {
      token: payer.token,
      body: { postId: (link.body as { id: string }).id, amount: 1 },
    });
    expect(give.status).toBe(201);
  });

  it('refuses a payer who still owes: a withdrawal, a give, a give link', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const pi = await cardDeposit(payer, 5);
    await giveAnonymously(payer, recipient, 5);
    offset += HOUR + 1000;
    await giveAnonymously(recipient, await buildUser(server), 5);
    await deliver(disputeEvent('charge.dispute.created', disputeObject(pi, 500)));
    await cardDeposit(payer, 3);
    expect(last.newBalance).toBe(0);
    await readyStripePayoutsFor(app, payer);
    const owed = await server.request('POST', '/api/billing-settings-withdrawal', { token: payer.token, body: { balance: 1 } });
    expect(owed.status).toBe(402);
    expect(owed.body.error).toBe('balance_owed');
    expect(owed.body.message).toContain('$2.00');
    expect(await balance(payer)).toMatchObject({ balance: 0, owed: 2, available: 0 });
    const giveLink = await server.request('POST', '/links/create', {
      token: payer.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 1, initialQuantity: 1 } },
    });
    expect(giveLink.status).toBe(402);
    const link = await server.request('POST', '/links/create', {
      token: recipient.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 1, quantity: 1 } },
    });
    await cardDeposit(payer, 5);
    expect(last.newBalance).toBe(3);
    const give = await server.request('POST', '/statuses/api/gives', {
      token: payer.token,
      body: { postId: (link.body as { id: string }).id, amount: 1 },
    });
    expect(give.status).toBe(201);
  });

  it('a dispute lost that was never seen opened is taken back once, and closing it again moves nothing', async () => {
    const payer = await buildUser(server);
    const pi = await cardDeposit(payer, 3);
    const dispute = disputeObject(pi, 300, 'lost');
    expect((await deliver(disputeEvent('charge.dispute.closed', dispute))).body.outcome).toBe('processed');
    expect((await deliver(disputeEvent('charge.dispute.closed', dispute))).body.outcome).toBe('ignored');
    expect(await balance(payer)).toMatchObject({ balance: 0 });
    expect((await deliver(disputeEvent('charge.dispute.created', disputeObject('pi_unknown', 300)))).body.outcome).toBe('ignored');
  });

  it('gives a won dispute back to system:unclaimed for someone who has closed their account since', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const pi = await cardDeposit(payer, 4);
    await giveByName(payer, recipient, 4);
    const dispute = disputeObject(pi, 400);
    await deliver(disputeEvent('charge.dispute.created', dispute));
    const closed = await server.request('POST', '/api/account/delete', { token: recipient.token, body: { password: recipient.password } });
    expect(closed.status).toBe(200);
    const unclaimed = () => ledgerBalance(server.deps.db.manager, SYSTEM_UNCLAIMED);
    const before = await unclaimed();
    expect((await deliver(disputeEvent('charge.dispute.closed', { ...dispute, status: 'won' }))).body.outcome).toBe('processed');
    expect(await unclaimed()).toBe(before + 400);
  });
});
