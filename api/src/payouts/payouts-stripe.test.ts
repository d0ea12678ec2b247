import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeConfig } from '../config.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { stripeClient } from '../payments/stripe-client.js';
import { StripeEventEntity } from '../subscriptions/entity.js';
import { onboardAccount, signedAccountUpdated } from '../subscriptions/testing/stripe-connect-server.js';
import { startStripeServer, type StripeTestServer } from '../subscriptions/testing/stripe-server.js';
import { TEST_PRICE_ID } from '../subscriptions/testing/stripe-app.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SYSTEM_PAYMENTS, transfer, userAccount } from '../money/ledger.js';
import { PAYOUTS_NOT_READY } from '../../contract/texts.js';
import { PayoutAccountEntity } from './entity.js';

/**
 * Payouts through Stripe Connect, against the local Stripe test server: one Express account per
 * user, Account Links back to our pages, the status from the signed `account.updated` webhook
 * (once per event id; a bad signature changes nothing), and a withdrawal as one Transfer per key.
 */
let stripeApi: StripeTestServer;
let server: TestServer;
let stripeConfig: StripeConfig;
const connectSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  stripeApi = await startStripeServer();
  server = await startTestServer({
    PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_giftlink',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_giftlink',
    STRIPE_PRICE_ID: TEST_PRICE_ID,
    STRIPE_WEBHOOK_SECRET: `whsec_${crypto.randomBytes(16).toString('hex')}`,
    STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
    STRIPE_API_BASE: stripeApi.url,
    PUBLIC_URL: 'https://giftlink.test',
  });
  stripeConfig = server.deps.config.stripe as StripeConfig;
});
afterAll(async () => {
  await server?.close();
  await stripeApi?.close();
});

const get = (who: TestUser) => server.request('GET', '/api/payouts', { token: who.token });
const since = (mark: number) => stripeApi.requests.slice(mark);

async function sendEvent(event: { payload: string; signature: string }) {
  const res = await fetch(`${server.url}/payouts/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function accountOf(who: TestUser): Promise<string> {
  const row = await server.deps.db.manager.findOneByOrFail(PayoutAccountEntity, { userId: who.user._id });
  return row.accountId;
}

/** Money in the user's balance straight through the ledger (a card deposit's effect, without the card). */
async function credit(who: TestUser, cents: number) {
  await server.deps.db.transaction((em) =>
    transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(who.user._id), amountCents: cents, kind: 'deposit', actorUserId: who.user._id }),
  );
}

describe('payouts with PAYMENTS=stripe', () => {
  it('creates one Express account per user and an onboarding link back to our pages', async () => {
    const ann = await buildUser(server);
    const mark = stripeApi.requests.length;
    const first = await server.request('POST', '/api/payouts/onboarding', { token: ann.token });
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/);
    const again = await server.request('POST', '/api/payouts/onboarding', { token: ann.token });
    expect(again.status).toBe(200);

    const creates = since(mark).filter((r) => r.method === 'POST' && r.path === '/v1/accounts');
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({
      idempotencyKey: `payouts-account-${ann.user._id}`,
      params: { type: 'express', 'capabilities[transfers][requested]': 'true' },
    });
    const links = since(mark).filter((r) => r.path === '/v1/account_links');
    expect(links).toHaveLength(2);
    expect(links[0].params).toMatchObject({
      account: await accountOf(ann),
      type: 'account_onboarding',
      refresh_url: 'https://giftlink.test/settings/payouts/refresh',
      return_url: 'https://giftlink.test/settings/payouts/return',
    });
    expect((await get(ann)).body).toMatchObject({ status: 'details_needed', requirements: expect.arrayContaining(['external_account']) });

    // The return page asks Stripe again.
    onboardAccount(stripeApi.objects, await accountOf(ann));
    expect((await server.request('GET', '/api/payouts?refresh=true', { token: ann.token })).body).toEqual({
      status: 'ready',
      bankLast4: '6789',
    });
    expect(
      (
        await server.request('POST', '/api/payouts/sandbox/complete', {
          token: ann.token,
          body: { routingNumber: '110000000', accountNumber: '000123456789' },
        })
      ).status,
    ).toBe(404);
  });

  it('follows account.updated once per event id; a bad signature is a 400 that changes nothing', async () => {
    const bo = await buildUser(server);
    await server.request('POST', '/api/payouts/onboarding', { token: bo.token });
    const accountId = await accountOf(bo);
    const stripe = stripeClient(stripeConfig);
    const account = onboardAccount(stripeApi.objects, accountId);

    const forged = signedAccountUpdated(stripe, 'whsec_not_ours', account);
    expect((await sendEvent(forged)).status).toBe(400);
    expect((await sendEvent({ payload: forged.payload, signature: '' })).status).toBe(400);
    expect(await server.deps.db.manager.countBy(StripeEventEntity, { id: forged.id })).toBe(0);
    expect((await get(bo)).body.status).toBe('details_needed');

    const ready = signedAccountUpdated(stripe, connectSecret, account);
    expect(await sendEvent(ready)).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    expect((await get(bo)).body).toEqual({ status: 'ready', bankLast4: '6789' });

    // Stripe restricts the account: a new event says so, and withdrawals stop with a clear message.
    account.requirements = { ...(account.requirements as object), disabled_reason: 'rejected.fraud', currently_due: [] };
    account.payouts_enabled = false;
    const restricted = signedAccountUpdated(stripe, connectSecret, account);
    expect((await sendEvent(restricted)).body.outcome).toBe('processed');
    expect((await get(bo)).body).toEqual({ status: 'restricted', bankLast4: '6789' });
    await credit(bo, 1000);
    const refused = await server.request('POST', '/api/billing-settings-withdrawal', { token: bo.token, body: { balance: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('payouts_restricted');

    // The earlier 'ready' event delivered again changes nothing: it was handled once.
    expect((await sendEvent(ready)).body.outcome).toBe('already processed');
    expect((await get(bo)).body.status).toBe('restricted');
    // An older state arriving late (another event id, made an hour ago) does not undo a newer one.
    account.payouts_enabled = true;
    account.requirements = { ...(account.requirements as object), disabled_reason: null };
    const stale = signedAccountUpdated(stripe, connectSecret, account, { created: Math.floor(Date.now() / 1000) - 3600 });
    expect((await sendEvent(stale)).body.outcome).toBe('ignored');
    expect((await get(bo)).body.status).toBe('restricted');
  });

  it('withdraws as one Transfer per key to the connected account, through the ledger', async () => {
    const cy = await buildUser(server);
    await credit(cy, 5000);
    const before = await server.deps.db.manager.count(LedgerTransferEntity);
    const early = await server.request('POST', '/api/billing-settings-withdrawal', { token: cy.token, body: { balance: 10 } });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ error: 'payouts_not_ready', message: PAYOUTS_NOT_READY });
    expect(await server.deps.db.manager.count(LedgerTransferEntity)).toBe(before);

    await server.request('POST', '/api/payouts/onboarding', { token: cy.token });
    const accountId = await accountOf(cy);
    await sendEvent(signedAccountUpdated(stripeClient(stripeConfig), connectSecret, onboardAccount(stripeApi.objects, accountId)));

    const mark = stripeApi.requests.length;
    const key = crypto.randomUUID();
    const send = () =>
      server.request('POST', '/api/billing-settings-withdrawal', {
        token: cy.token,
        body: { balance: 20 },
        headers: { 'Idempotency-Key': key },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    for (const res of [a, b, c]) expect(res.body).toEqual({ new_balance: 30 });
    const transfers = since(mark).filter((r) => r.method === 'POST' && r.path === '/v1/transfers');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ params: { amount: '2000', currency: 'usd', destination: accountId } });
    expect(transfers[0].idempotencyKey).toMatch(/^giftlink:withdrawal:/);
    await expectLedgerSound(server.deps.db);
  });
});
