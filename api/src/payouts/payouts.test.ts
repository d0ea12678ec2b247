import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerTransferEntity } from '../money/entity.js';
import { expectLedgerSound } from '../testing/ledger.js';
import {
  balanceOfUser,
  buildUser,
  depositFor,
  readyPayoutsFor,
  startTestServer,
  TEST_BANK,
  type TestServer,
  type TestUser,
} from '../testing/server.js';
import { PAYOUTS_NOT_READY, PAYOUTS_NOT_SET_UP } from '../../contract/texts.js';
import { PaymentIntentEntity } from '../wallet/entity.js';
import { SandboxPayments } from '../payments/sandbox.js';
import { payoutDestinationOf } from './service.js';

/**
 * Payouts on the embedded default (PAYMENTS=sandbox): not started until the user asks, the test
 * bank form makes the account ready, and no withdrawal goes out before that; Stripe's failing test
 * account is accepted and its withdrawals fail, the held money coming back.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const WITHDRAWAL = '/api/billing-settings-withdrawal';
const get = (who: TestUser) => server.request('GET', '/api/payouts', { token: who.token });
const complete = (who: TestUser, body: unknown) => server.request('POST', '/api/payouts/sandbox/complete', { token: who.token, body });
const withdraw = (who: TestUser, dollars: number, key?: string) =>
  server.request('POST', WITHDRAWAL, { token: who.token, body: { balance: dollars }, headers: key ? { 'Idempotency-Key': key } : {} });
const transfers = () => server.deps.db.manager.count(LedgerTransferEntity);

describe('payouts in the sandbox', () => {
  it('is not started, then needs the bank details, then is ready with the bank', async () => {
    const ann = await buildUser(server);
    expect((await get(ann)).body).toEqual({ status: 'not_started' });

    const onboarding = await server.request('POST', '/api/payouts/onboarding', { token: ann.token });
    expect(onboarding.status).toBe(200);
    expect(onboarding.body).toEqual({ url: '/settings/payouts/sandbox' });
    expect((await get(ann)).body).toEqual({ status: 'details_needed', requirements: ['external_account'] });
    // Asking twice makes no second account.
    await server.request('POST', '/api/payouts/onboarding', { token: ann.token });

    const done = await complete(ann, TEST_BANK);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'ready', bankLast4: '6789' });
    expect((await get(ann)).body).toEqual({ status: 'ready', bankLast4: '6789' });
    expect((await server.request('GET', '/api/payouts?refresh=true', { token: ann.token })).body).toEqual({
      status: 'ready',
      bankLast4: '6789',
    });
  });

  it('refuses malformed or unknown bank numbers with a clear 400 that changes nothing', async () => {
    const bo = await buildUser(server);
    for (const body of [
      {},
      { routingNumber: '11000000', accountNumber: '000123456789' },
      { routingNumber: '110000000', accountNumber: '12a' },
    ]) {
      const res = await complete(bo, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    const bad = await complete(bo, { routingNumber: '110000000', accountNumber: '000999999999' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_bank_account', message: expect.stringContaining('000123456789') });
    expect((await get(bo)).body.status).not.toBe('ready');
  });

  it('refuses a withdrawal before payouts are ready, moving nothing', async () => {
    const cy = await buildUser(server);
    await depositFor(server, cy, 20);
    const before = await transfers();
    const res = await withdraw(cy, 5);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'payouts_not_ready', message: PAYOUTS_NOT_READY });
    expect(await balanceOfUser(server, cy)).toBe(20);
    expect(await transfers()).toBe(before);
    expect(await server.deps.db.manager.countBy(PaymentIntentEntity, { userId: cy.user._id, kind: 'withdrawal' })).toBe(0);
    await expectLedgerSound(server.deps.db);

    await readyPayoutsFor(server, cy);
    const paid = await withdraw(cy, 5);
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ new_balance: 15 });
    const history = await server.request('GET', '/api/wallet/history?kind=withdrawal', { token: cy.token });
    expect(history.body.entries).toMatchObject([{ amount: -5, payout: { bankLast4: '6789', status: 'paid' } }]);
    await expectLedgerSound(server.deps.db);
  });

  it("accepts Stripe's failing test account, whose withdrawals fail and give the money back", async () => {
    const di = await buildUser(server);
    await depositFor(server, di, 30);
    const done = await complete(di, { routingNumber: '110000000', accountNumber: '000111111116' });
    expect(done.body).toEqual({ status: 'ready', bankLast4: '1116' });
    const res = await withdraw(di, 12);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('payout_failed');
    expect(await balanceOfUser(server, di)).toBe(30);
    const [intent] = await server.deps.db.manager.findBy(PaymentIntentEntity, { userId: di.user._id, kind: 'withdrawal' });
    expect(intent.status).toBe('failed');
    const history = await server.request('GET', '/api/wallet/history', { token: di.token });
    const out = history.body.entries.find((e: { kind: string; amount: number }) => e.kind === 'withdrawal' && e.amount < 0);
    expect(out).toMatchObject({ amount: -12, payout: { bankLast4: '1116', status: 'failed' } });
    await expectLedgerSound(server.deps.db);
  });

  it('answers a payout SANDBOX_PAYOUT_DELAY_MS after deciding it, the same answer as at once', async () => {
    const [pays, fails] = [await buildUser(server), await buildUser(server)];
    await readyPayoutsFor(server, pays);
    await readyPayoutsFor(server, fails, { routingNumber: '110000000', accountNumber: '000111111116' });
    const request = async (who: TestUser) => ({
      userId: who.user._id,
      amountCents: 100,
      idempotencyKey: `delay-${who.user._id}`,
      destination: await payoutDestinationOf(server.deps.db.manager, who.user._id),
    });
    const slow = new SandboxPayments(server.deps.db, () => new Date(), 300);
    const started = performance.now();
    const answer = await slow.payout(await request(pays));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer).toEqual(await new SandboxPayments(server.deps.db, () => new Date()).payout(await request(pays)));
    await expect(slow.payout(await request(fails))).rejects.toMatchObject({ code: 'payout_failed' });
  });

  it('changes the bank of a ready account on the same test form, and refuses before payouts are set up', async () => {
    const ho = await buildUser(server);
    const dashboard = () => server.request('POST', '/api/payouts/dashboard', { token: ho.token, body: {} });
    expect((await dashboard()).body).toEqual({ error: 'payouts_not_set_up', message: PAYOUTS_NOT_SET_UP });
    await server.request('POST', '/api/payouts/onboarding', { token: ho.token });
    expect((await dashboard()).body.error).toBe('payouts_not_set_up');

    await readyPayoutsFor(server, ho);
    const link = await dashboard();
    expect(link.status).toBe(200);
    expect(link.body).toEqual({ url: '/settings/payouts/sandbox?change=bank' });
    const changed = await complete(ho, { routingNumber: '110000000', accountNumber: '000111111116' });
    expect(changed.body).toEqual({ status: 'ready', bankLast4: '1116' });
    expect((await get(ho)).body).toEqual({ status: 'ready', bankLast4: '1116' });
    // Unknown numbers change nothing; the bank that pays comes back.
    expect((await complete(ho, { routingNumber: '110000000', accountNumber: '000999999999' })).status).toBe(400);
    expect((await get(ho)).body.bankLast4).toBe('1116');
    expect((await complete(ho, TEST_BANK)).body).toEqual({ status: 'ready', bankLast4: '6789' });
    await depositFor(server, ho, 3);
    expect((await withdraw(ho, 3)).body).toEqual({ new_balance: 0 });
  });

  it('stops withdrawals once the account is closed', async () => {
    const gus = await buildUser(server);
    await readyPayoutsFor(server, gus);
    const closed = await server.request('POST', '/api/account/delete', { token: gus.token, body: { password: gus.password } });
    expect(closed.status).toBe(200);
    const res = await withdraw(gus, 1);
    expect(res.status).toBe(401);
    await expectLedgerSound(server.deps.db);
  });

  it("answers 401 without a session, 400 for bad input and 403 for another user's id on every route", async () => {
    for (const [method, path] of [
      ['GET', '/api/payouts'],
      ['POST', '/api/payouts/onboarding'],
      ['POST', '/api/payouts/dashboard'],
      ['POST', '/api/payouts/sandbox/complete'],
    ] as const) {
      const res = await server.request(method, path, { body: method === 'POST' ? TEST_BANK : undefined });
      expect(res.status).toBe(401);
    }
    const ed = await buildUser(server);
    const fi = await buildUser(server);
    expect((await server.request('GET', '/api/payouts?refresh=maybe', { token: ed.token })).status).toBe(400);
    expect((await server.request('POST', '/api/payouts/onboarding', { token: ed.token, body: { userId: 42 } })).status).toBe(400);
    expect((await server.request('GET', `/api/payouts?userId=${fi.user._id}`, { token: ed.token })).status).toBe(403);
    expect((await server.request('POST', '/api/payouts/onboarding', { token: ed.token, body: { userId: fi.user._id } })).status).toBe(403);
    expect((await server.request('POST', '/api/payouts/dashboard', { token: ed.token, body: { userId: fi.user._id } })).status).toBe(403);
    const other = await complete(ed, { ...TEST_BANK, userId: fi.user._id });
    expect(other.status).toBe(403);
    expect((await get(fi)).body).toEqual({ status: 'not_started' });
    expect((await get(ed)).body).toEqual({ status: 'not_started' });
  });
});
