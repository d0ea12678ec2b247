import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_PRODUCT_ID } from '../../contract/subscriptions.js';
import { MONEY_HISTORY_KINDS, SUBSCRIPTION_RENEWAL_FAILED } from '../../contract/texts.js';
import { SYSTEM_SUBSCRIPTIONS, balanceOf } from '../money/ledger.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { SubscriptionEntity } from './entity.js';
import { renewDueSubscriptions } from './renewals.js';
import { settleInvoicePaid, settleInvoicePaymentFailed, settleSubscriptionDeleted, settleSubscriptionUpdated } from './settle.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { insertIncompleteStripeSubscription } from './testing/rows.js';

let server: TestServer;
let second: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // Another API process on the same database.
  second = await startTestServer({ share: server });
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const DAY = 24 * 60 * 60 * 1000;
/**
 * The other API process, for running at the same time. On PostgreSQL: the second server, a writer
 * of its own. On SQLite both servers would share this one Node process, where one connection's
 * synchronous wait for the file lock blocks the other's commit: there, concurrent runs go through
 * one server (its writer takes turns) and the second process runs after, on the same database.
 */
const concurrent = () => (server.deps.db.isPostgres ? second : server);
const post = (who: TestUser, path: string, body: unknown) => server.request('POST', path, { token: who.token, body });
const subscriptionOf = (who: TestUser) => server.deps.db.manager.findOneByOrFail(SubscriptionEntity, { userId: who.user._id });
const subscribedUntil = async (who: TestUser) =>
  (await server.deps.db.manager.findOneByOrFail(UserEntity, { id: who.user._id })).subscribedUntil;

async function subscribeFromBalance(who: TestUser) {
  const res = await post(who, '/subscriptions/create-subscription', { productId: SUBSCRIPTION_PRODUCT_ID, paymentMethod: 'balance' });
  expect(res.status).toBe(200);
  return subscriptionOf(who);
}

async function expectInvariants() {
  await expectLedgerSound(server.deps.db);
}

describe('renewals from the balance', () => {
  it('two processes renewing at once charge once, and the ledger holds', async () => {
    const [who] = await buildUsers(server, 1, 'renew');
    await depositFor(server, who, 10);
    const sub = await subscribeFromBalance(who);
    expect(await balanceOfUser(server, who)).toBe(8.01);
    const end = sub.currentPeriodEnd!;
    const systemBefore = await balanceOf(server.deps.db.manager, SYSTEM_SUBSCRIPTIONS);

    // Nothing is due before the end.
    expect(await renewDueSubscriptions(server.deps, new Date(end.getTime() - 1000))).toEqual({ renewed: 0, pastDue: 0, ended: 0 });

    const now = new Date(end.getTime() + 1000);
    const reports = await Promise.all([
      renewDueSubscriptions(server.deps, now),
      renewDueSubscriptions(concurrent().deps, now),
      renewDueSubscriptions(server.deps, now),
    ]);
    reports.push(await renewDueSubscriptions(second.deps, now));
    expect(reports.reduce((n, r) => n + r.renewed, 0)).toBe(1);
    expect(await balanceOfUser(server, who)).toBe(6.02);
    expect(await balanceOf(server.deps.db.manager, SYSTEM_SUBSCRIPTIONS)).toBe(systemBefore + 199);
    const renewed = await subscriptionOf(who);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd!.getTime()).toBe(end.getTime() + 7 * DAY);
    expect((await subscribedUntil(who))!.getTime()).toBe(end.getTime() + 7 * DAY);
    // The money history shows both weeks as subscription charges, to no one (no party).
    const history = await server.request('GET', '/api/wallet/history?kind=subscription', { token: who.token });
    expect(history.status).toBe(200);
    expect(history.body.entries).toEqual([
      expect.objectContaining({ kind: 'subscription', amount: -1.99, balance: 6.02, party: null }),
      expect.objectContaining({ kind: 'subscription', amount: -1.99, balance: 8.01, party: null }),
    ]);
    const csv = await server.request('GET', '/api/wallet/history.csv?kind=subscription', { token: who.token });
    expect(String(csv.body)).toContain(MONEY_HISTORY_KINDS.subscription);
    await expectInvariants();
  });

  it('a short balance makes it past due, benefits off, and notifies the user once', async () => {
    const [who, other] = await buildUsers(server, 2, 'short');
    await depositFor(server, who, 2);
    const sub = await subscribeFromBalance(who);
    expect(await balanceOfUser(server, who)).toBe(0.01);
    const now = new Date(sub.currentPeriodEnd!.getTime() + 1000);
    const reports = await Promise.all([renewDueSubscriptions(server.deps, now), renewDueSubscriptions(concurrent().deps, now)]);
    reports.push(await renewDueSubscriptions(second.deps, now));
    expect(reports.reduce((n, r) => n + r.pastDue, 0)).toBe(1);
    expect((await subscriptionOf(who)).status).toBe('past_due');
    expect(await subscribedUntil(who)).toBeNull();
    expect(await balanceOfUser(server, who)).toBe(0.01);
    const notes = await server.request('GET', `/api/notifications/${who.user._id}`, { token: who.token });
    const mine = (notes.body as { type: string; message: string; senderUserId: null }[]).filter((n) => n.type === 'subscription');
    expect(mine).toEqual([expect.objectContaining({ message: SUBSCRIPTION_RENEWAL_FAILED, senderUserId: null })]);
    const seen = await server.request('GET', `/api/users?username=${who.user.username}`, { token: other.token });
    expect(seen.body.isSubscribed).toBe(false);
    // Paying again from a topped-up balance makes it active again.
    await depositFor(server, who, 5);
    await subscribeFromBalance(who);
    expect((await subscriptionOf(who)).status).toBe('active');
    await expectInvariants();
  });

  it('a subscription canceled at its period end is over once the end passes, with no charge', async () => {
    const [who] = await buildUsers(server, 1, 'ends');
    await depositFor(server, who, 5);
    const sub = await subscribeFromBalance(who);
    expect((await post(who, '/subscriptions/cancel', {})).body).toEqual({ isCanceled: true });
    const balance = await balanceOfUser(server, who);
    const report = await renewDueSubscriptions(server.deps, new Date(sub.currentPeriodEnd!.getTime() + 1000));
    expect(report.ended).toBeGreaterThanOrEqual(1);
    expect((await subscriptionOf(who)).status).toBe('canceled');
    expect(await subscribedUntil(who)).toBeNull();
    expect(await balanceOfUser(server, who)).toBe(balance);
    await expectInvariants();
  });
});

describe('renewals on a sandbox card', () => {
  it('charges the card and moves the period on a week, once', async () => {
    const [who] = await buildUsers(server, 1, 'card');
    const intent = await post(who, '/subscriptions/create-payment-intent', { productId: SUBSCRIPTION_PRODUCT_ID });
    const confirm = await post(who, '/subscriptions/sandbox/confirm', {
      clientSecret: intent.body.clientSecret,
      cardNumber: '4242424242424242',
      expiry: '12/40',
      cvc: '123',
    });
    expect(confirm.status).toBe(200);
    expect(
      (
        await post(who, '/subscriptions/create-subscription', {
          productId: SUBSCRIPTION_PRODUCT_ID,
          paymentIntentId: confirm.body.paymentIntentId,
        })
      ).status,
    ).toBe(200);
    const end = (await subscriptionOf(who)).currentPeriodEnd!;
    const now = new Date(end.getTime() + 1000);
    const reports = await Promise.all([renewDueSubscriptions(server.deps, now), renewDueSubscriptions(concurrent().deps, now)]);
    reports.push(await renewDueSubscriptions(second.deps, now));
    expect(reports.reduce((n, r) => n + r.renewed, 0)).toBe(1);
    const renewed = await subscriptionOf(who);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd!.getTime()).toBe(end.getTime() + 7 * DAY);
  });
});

describe('settling what the provider reports', () => {
  const stripeLike = (who: TestUser, providerSubscriptionId: string) =>
    insertIncompleteStripeSubscription(server.deps.db, who.user._id, providerSubscriptionId);

  it('invoice.paid activates, repeats change nothing, and nothing resurrects a canceled subscription', async () => {
    const [who] = await buildUsers(server, 1, 'settle');
    const id = `sub_test_${who.user._id.slice(0, 8)}`;
    await stripeLike(who, id);
    const periodEnd = new Date(Date.now() + 7 * DAY);
    await Promise.all([
      settleInvoicePaid(server.deps, { providerSubscriptionId: id, periodEnd }),
      settleInvoicePaid(concurrent().deps, { providerSubscriptionId: id, periodEnd }),
    ]);
    await settleInvoicePaid(second.deps, { providerSubscriptionId: id, periodEnd });
    let sub = await subscriptionOf(who);
    expect(sub).toMatchObject({ status: 'active', paymentIntentId: null });
    expect(sub.currentPeriodEnd!.getTime()).toBe(periodEnd.getTime());
    expect((await subscribedUntil(who))!.getTime()).toBe(periodEnd.getTime());

    // A late, older invoice never shortens the period; a late 'incomplete' never undoes the payment.
    await settleInvoicePaid(server.deps, { providerSubscriptionId: id, periodEnd: new Date(Date.now() + DAY) });
    await settleSubscriptionUpdated(server.deps, {
      subscriptionId: id,
      customerId: 'cus_test',
      status: 'incomplete',
      currentPeriodEnd: new Date(),
      cancelAtPeriodEnd: false,
    });
    sub = await subscriptionOf(who);
    expect(sub.status).toBe('active');
    expect(sub.currentPeriodEnd!.getTime()).toBe(periodEnd.getTime());

    // Cancel at period end, reported by the provider: benefits stay until the end.
    await settleSubscriptionUpdated(server.deps, {
      subscriptionId: id,
      customerId: 'cus_test',
      status: 'active',
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: true,
    });
    expect((await subscriptionOf(who)).cancelAtPeriodEnd).toBe(true);
    expect((await subscribedUntil(who))!.getTime()).toBe(periodEnd.getTime());

    // Deleted: over. Then late events change nothing.
    expect(await settleSubscriptionDeleted(server.deps, { providerSubscriptionId: id })).not.toBeNull();
    expect(await settleSubscriptionDeleted(server.deps, { providerSubscriptionId: id })).toBeNull();
    expect(await subscribedUntil(who)).toBeNull();
    expect(await settleInvoicePaid(server.deps, { providerSubscriptionId: id, periodEnd: new Date(Date.now() + 14 * DAY) })).toBeNull();
    expect(
      await settleSubscriptionUpdated(server.deps, {
        subscriptionId: id,
        customerId: 'cus_test',
        status: 'active',
        currentPeriodEnd: new Date(Date.now() + 14 * DAY),
        cancelAtPeriodEnd: false,
      }),
    ).toBeNull();
    expect((await subscriptionOf(who)).status).toBe('canceled');
    expect(await subscribedUntil(who)).toBeNull();
  });

  it('invoice.payment_failed makes an active subscription past due, benefits off; an unknown id changes nothing', async () => {
    const [who] = await buildUsers(server, 1, 'failed');
    const id = `sub_fail_${who.user._id.slice(0, 8)}`;
    await stripeLike(who, id);
    await settleInvoicePaid(server.deps, { providerSubscriptionId: id, periodEnd: new Date(Date.now() + 7 * DAY) });
    expect(await settleInvoicePaymentFailed(server.deps, { providerSubscriptionId: id })).toMatchObject({ status: 'past_due' });
    expect(await settleInvoicePaymentFailed(server.deps, { providerSubscriptionId: id })).toBeNull();
    expect(await subscribedUntil(who)).toBeNull();
    // Paid after all: active again.
    await settleInvoicePaid(server.deps, { providerSubscriptionId: id, periodEnd: new Date(Date.now() + 7 * DAY) });
    expect((await subscriptionOf(who)).status).toBe('active');
    expect(await settleInvoicePaid(server.deps, { providerSubscriptionId: 'sub_unknown', periodEnd: new Date() })).toBeNull();
  });
});
