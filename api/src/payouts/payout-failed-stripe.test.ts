import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerTransferEntity } from '../money/entity.js';
import { stripeClient } from '../payments/stripe-client.js';
import { StripeEventEntity } from '../subscriptions/entity.js';
import { readyStripePayoutsFor, startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { signedPayoutEvent, type TestPayout } from '../subscriptions/testing/stripe-connect-server.js';
import { buildUser, type TestUser } from '../testing/server.js';
import { PAYOUTS_NOT_SET_UP, payoutRefused } from '../../contract/texts.js';
import { PayoutAccountEntity } from './entity.js';

/**
 * A bank payout that fails after its Transfer, and changing the bank, with PAYMENTS=stripe against
 * the local Stripe test server: the signed `payout.failed` shows on the user's payouts (once per
 * event id, never undone by an older event), a later `payout.paid` clears it, the ledger does not
 * move, and 'Change bank account' is a login link to the Express Dashboard once payouts are set up.
 */
let app: StripeApp;
let stripe: Stripe;
const connectSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  app = await startStripeApp({ STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret, PUBLIC_URL: 'https://giftlink.test' });
  stripe = stripeClient(app.stripeConfig);
});
afterAll(() => app?.close());

const now = () => Math.floor(Date.now() / 1000);
const get = (who: TestUser) => app.server.request('GET', '/api/payouts', { token: who.token });
const dashboard = (who: TestUser, body: Record<string, unknown> = {}) =>
  app.server.request('POST', '/api/payouts/dashboard', { token: who.token, body });

async function accountOf(who: TestUser): Promise<string> {
  return (await app.server.deps.db.manager.findOneByOrFail(PayoutAccountEntity, { userId: who.user._id })).accountId;
}

/** Sends a payout event as Stripe does: signed, to the Connect endpoint; answers its outcome. */
async function deliver(event: { payload: string; signature: string }): Promise<unknown> {
  const res = await fetch(`${app.server.url}/payouts/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { outcome?: string }).outcome;
}

const failed = (payout: TestPayout, event: { id?: string; created?: number } = {}) =>
  signedPayoutEvent(stripe, connectSecret, 'payout.failed', payout, event);
const paid = (payout: TestPayout, event: { id?: string; created?: number } = {}) =>
  signedPayoutEvent(stripe, connectSecret, 'payout.paid', payout, event);

describe('a bank payout that fails after the Transfer', () => {
  it('shows on the payouts with a plain reason, once per event; the ledger does not move', async () => {
    const ann = await buildUser(app.server);
    await readyStripePayoutsFor(app, ann);
    const accountId = await accountOf(ann);
    const transfers = await app.server.deps.db.manager.count(LedgerTransferEntity);
    const created = now() - 60;

    const event = failed({ accountId, amount: 1250, created: created - 86_400, failureCode: 'account_closed' }, { created });
    expect(await deliver(event)).toBe('processed');
    const shown = (await get(ann)).body;
    expect(shown).toEqual({
      status: 'ready',
      bankLast4: '6789',
      payoutFailed: { amount: 12.5, reason: 'the bank account is closed', at: new Date(created * 1000).toISOString() },
    });
    expect(payoutRefused('$12.50', shown.payoutFailed.reason)).toBe(
      'Your bank refused a payout of $12.50 (the bank account is closed). The money waits at Stripe until you update your bank details.',
    );
    expect(await app.server.deps.db.manager.count(LedgerTransferEntity)).toBe(transfers);
    expect(await app.server.deps.db.manager.countBy(StripeEventEntity, { id: event.id })).toBe(1);

    // The same event delivered again is answered and changes nothing.
    expect(await deliver(event)).toBe('already processed');
    expect((await get(ann)).body.payoutFailed).toEqual(shown.payoutFailed);
  });

  it("words a code it does not know with Stripe's message, and no code nor message generically", async () => {
    const bo = await buildUser(app.server);
    await readyStripePayoutsFor(app, bo);
    const accountId = await accountOf(bo);
    await deliver(failed({ accountId, amount: 300, failureCode: 'bank_in_a_mood', failureMessage: 'The bank is closed for lunch.' }));
    expect((await get(bo)).body.payoutFailed).toMatchObject({ amount: 3, reason: 'The bank is closed for lunch' });
    await deliver(failed({ accountId, amount: 400 }, { created: now() + 1 }));
    expect((await get(bo)).body.payoutFailed).toMatchObject({ amount: 4, reason: 'the bank gave no reason' });
  });

  it('ignores an older event than the one recorded; a later payout.paid clears it, one made before the failed payout does not', async () => {
    const cy = await buildUser(app.server);
    await readyStripePayoutsFor(app, cy);
    const accountId = await accountOf(cy);
    const t = now() - 3600;

    expect(await deliver(failed({ accountId, amount: 2000, created: t - 100, failureCode: 'no_account' }, { created: t }))).toBe(
      'processed',
    );
    // An earlier failure and an earlier paid event, delivered late, change nothing.
    expect(await deliver(failed({ accountId, amount: 999, created: t - 500, failureCode: 'declined' }, { created: t - 60 }))).toBe(
      'ignored',
    );
    expect(await deliver(paid({ accountId, amount: 2000, created: t - 100 }, { created: t - 30 }))).toBe('ignored');
    expect((await get(cy)).body.payoutFailed).toMatchObject({ amount: 20, reason: 'no bank account has that number' });

    // A payout made before the failed one, paid later, leaves the failed money waiting.
    expect(await deliver(paid({ accountId, amount: 700, created: t - 200 }, { created: t + 60 }))).toBe('ignored');
    expect((await get(cy)).body.payoutFailed).toMatchObject({ amount: 20 });

    // The next payout, once the bank is fixed, reaches it: the failure is gone.
    expect(await deliver(paid({ accountId, amount: 2000, created: t + 100 }, { created: t + 200 }))).toBe('processed');
    expect((await get(cy)).body).toEqual({ status: 'ready', bankLast4: '6789' });
    // The failure, delivered again under another id but older, does not come back.
    expect(await deliver(failed({ accountId, amount: 2000, created: t - 100, failureCode: 'no_account' }, { created: t }))).toBe('ignored');
    expect((await get(cy)).body.payoutFailed).toBeUndefined();
  });

  it("changes nothing for an account that is none of ours or for the platform's own payouts", async () => {
    expect(await deliver(failed({ accountId: 'acct_not_ours', amount: 100, failureCode: 'account_closed' }))).toBe('ignored');
    const platform = failed({ accountId: '', amount: 100, failureCode: 'account_closed' });
    const withoutAccount = JSON.stringify({ ...JSON.parse(platform.payload), account: undefined });
    expect(
      await deliver({
        payload: withoutAccount,
        signature: stripe.webhooks.generateTestHeaderString({ payload: withoutAccount, secret: connectSecret }),
      }),
    ).toBe('ignored');
  });

  it("is the user's own: another user neither sees it nor asks for it", async () => {
    const di = await buildUser(app.server);
    const ed = await buildUser(app.server);
    await readyStripePayoutsFor(app, di);
    await readyStripePayoutsFor(app, ed);
    await deliver(failed({ accountId: await accountOf(di), amount: 500, failureCode: 'invalid_account_number' }));
    expect((await get(di)).body.payoutFailed).toMatchObject({ amount: 5, reason: 'the account number is wrong' });
    expect((await get(ed)).body).toEqual({ status: 'ready', bankLast4: '6789' });
    expect((await app.server.request('GET', `/api/payouts?userId=${di.user._id}`, { token: ed.token })).status).toBe(403);
    expect((await dashboard(ed, { userId: di.user._id })).status).toBe(403);
  });
});

describe('changing the bank account with Stripe', () => {
  it('answers a login link to the Express Dashboard once payouts are set up, and a clear 400 before', async () => {
    const fi = await buildUser(app.server);
    const mark = app.stripeApi.requests.length;
    expect((await dashboard(fi)).body).toEqual({ error: 'payouts_not_set_up', message: PAYOUTS_NOT_SET_UP });
    // An account whose onboarding is unfinished has no bank to change either; Stripe was not asked.
    await app.server.request('POST', '/api/payouts/onboarding', { token: fi.token });
    const early = await dashboard(fi);
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('payouts_not_set_up');
    expect(app.stripeApi.requests.slice(mark).filter((r) => r.path.endsWith('/login_links'))).toHaveLength(0);

    await readyStripePayoutsFor(app, fi);
    const accountId = await accountOf(fi);
    const link = await dashboard(fi);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/express/${accountId}/`));
    const asked = app.stripeApi.requests.slice(mark).filter((r) => r.path.endsWith('/login_links'));
    expect(asked).toEqual([expect.objectContaining({ method: 'POST', path: `/v1/accounts/${accountId}/login_links` })]);
    // Each call is a new single-use link.
    expect((await dashboard(fi)).body.url).not.toBe(link.body.url);
  });

  it('answers 401 without a session', async () => {
    expect((await app.server.request('POST', '/api/payouts/dashboard', { body: {} })).status).toBe(401);
  });
});
