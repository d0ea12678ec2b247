import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequest } from '../errors.js';
import { SYSTEM_PAYMENTS, transfer, userAccount } from '../money/ledger.js';
import { SandboxObjectEntity } from '../payments/entity.js';
import { recordSandboxTransfer } from '../payments/sandbox-transfers.js';
import { stripeClient } from '../payments/stripe-client.js';
import { PayoutAccountEntity } from '../payouts/entity.js';
import { readyStripePayoutsFor, startStripeApp, type StripeApp } from '../subscriptions/testing/stripe-app.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { balanceOfUser, buildUser, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { beginWithdrawal } from './intents.js';
import { RECONCILE_WINDOW_MS, reconcileWithProvider } from './reconcile.js';
import { reconcileTransfers } from './reconcile-transfers.js';
import { OVERDRAWN } from './service.js';

/**
 * Withdrawals against the provider's Transfers: each check fails on a discrepancy written into the
 * database (the provider's records or the ledger's), and passes again once it is undone.
 */
const WITHDRAWAL = '/api/billing-settings-withdrawal';
const FAILING_BANK = { routingNumber: '110000000', accountNumber: '000111111116' };
const MINUTE = 60_000;

const withdraw = (server: TestServer, who: TestUser, dollars: number) =>
  server.request('POST', WITHDRAWAL, { token: who.token, body: { balance: dollars }, headers: { 'Idempotency-Key': crypto.randomUUID() } });

const credit = (server: TestServer, who: TestUser, cents: number) =>
  server.deps.db.transaction((em) =>
    transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(who.user._id), amountCents: cents, kind: 'deposit', actorUserId: who.user._id }),
  );

const withdrawalOf = (server: TestServer, who: TestUser) =>
  server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { userId: who.user._id, kind: 'withdrawal' });

const accountOf = async (server: TestServer, who: TestUser) =>
  (await server.deps.db.manager.findOneByOrFail(PayoutAccountEntity, { userId: who.user._id })).accountId;

/** A withdrawal whose process stopped after the provider was asked and before the ledger heard its answer. */
const beginHeld = (server: TestServer, who: TestUser, cents: number): Promise<PaymentIntent> =>
  server.deps.db.transaction((em) =>
    beginWithdrawal(em, {
      userId: who.user._id,
      amountCents: cents,
      recordId: null,
      insufficient: () => badRequest(OVERDRAWN, 'insufficient_funds'),
    }),
  );

describe('withdrawals reconciled with the sandbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  const reconcile = (now = new Date()) => reconcileWithProvider({ db: server.deps.db, payments: server.deps.payments }, now);

  /** Rewrites a sandbox Transfer as if the provider's record said otherwise. */
  async function changeTransfer(reference: string, change: Record<string, unknown>): Promise<void> {
    const row = await server.deps.db.manager.findOneByOrFail(SandboxObjectEntity, { id: reference, kind: 'transfer' });
    const data = { ...(JSON.parse(row.data) as Record<string, unknown>), ...change };
    await server.deps.db.transaction((em) => em.update(SandboxObjectEntity, { id: reference }, { data: JSON.stringify(data) }));
  }

  it('passes when every withdrawal has its transfer, and names each kind of difference', async () => {
    const [ann, bo] = [await buildUser(server), await buildUser(server)];
    await readyPayoutsFor(server, ann);
    await readyPayoutsFor(server, bo, FAILING_BANK);
    await credit(server, ann, 5000);
    await credit(server, bo, 3000);
    expect((await withdraw(server, ann, 20)).status).toBe(200);
    expect((await withdraw(server, bo, 12)).body.error).toBe('payout_failed');
    expect(await reconcile()).toEqual([]);

    const sent = await withdrawalOf(server, ann);
    const ref = sent.providerReference!;
    const annAccount = await accountOf(server, ann);
    const listed = await server.deps.payments.listTransfers(new Date(Date.now() - MINUTE));
    expect(listed).toContainEqual(
      expect.objectContaining({
        reference: ref,
        amountCents: 2000,
        reversedCents: 0,
        destination: annAccount,
        idempotencyKey: sent.idempotencyKey,
      }),
    );

    await changeTransfer(ref, { amountCents: 2500 });
    expect(await reconcile()).toEqual([
      { reference: ref, problem: `the provider sent $25.00 for withdrawal ${sent.id} and the ledger sent $20.00` },
    ]);
    await changeTransfer(ref, { amountCents: 2000, destination: 'acct_sandbox_elsewhere' });
    expect(await reconcile()).toEqual([
      {
        reference: ref,
        problem: `the provider sent withdrawal ${sent.id} to acct_sandbox_elsewhere, which is not the user's connected account (${annAccount})`,
      },
    ]);
    await changeTransfer(ref, { destination: annAccount, reversedCents: 2000 });
    expect(await reconcile()).toEqual([
      {
        reference: ref,
        problem: `the provider reversed $20.00 of withdrawal ${sent.id} and the ledger still counts $20.00 sent: the money is back with the platform, not with the user`,
      },
    ]);
    await changeTransfer(ref, { reversedCents: 0 });
    expect(await reconcile()).toEqual([]);

    // The provider's record gone: the ledger sent money the provider never did.
    const row = await server.deps.db.manager.findOneByOrFail(SandboxObjectEntity, { id: ref });
    await server.deps.db.transaction((em) => em.delete(SandboxObjectEntity, { id: ref }));
    expect(await reconcile()).toEqual([
      { reference: ref, problem: `the ledger settled withdrawal ${sent.id} of $20.00 as sent and the provider shows no transfer for it` },
    ]);
    await server.deps.db.transaction((em) => em.insert(SandboxObjectEntity, row));
    expect(await reconcile()).toEqual([]);

    // A withdrawal given back to the balance that the provider sent all the same.
    const failed = await withdrawalOf(server, bo);
    expect(failed.status).toBe('failed');
    const boAccount = await accountOf(server, bo);
    await recordSandboxTransfer(server.deps.db, new Date(), {
      userId: bo.user._id,
      amountCents: 1200,
      destination: boAccount,
      idempotencyKey: failed.idempotencyKey,
    });
    const [twice] = await reconcile();
    expect(twice.problem).toBe(
      `withdrawal ${failed.id} was given back to the balance, yet the provider sent $12.00 to ${boAccount}: the user has it twice; reverse the transfer or take it back from the balance`,
    );
    // Reversed at the provider, it stands no more.
    await changeTransfer(twice.reference, { reversedCents: 1200 });
    expect(await reconcile()).toEqual([]);

    // A Transfer for a withdrawal the ledger never recorded.
    const stray = await server.deps.payments.payout({
      userId: ann.user._id,
      amountCents: 700,
      idempotencyKey: `giftlink:withdrawal:${crypto.randomUUID()}`,
      destination: { accountId: annAccount },
    });
    expect(await reconcile()).toEqual([
      { reference: stray.reference, problem: `the provider sent $7.00 to ${annAccount} for a withdrawal the ledger does not know` },
    ]);
    await server.deps.db.transaction((em) => em.delete(SandboxObjectEntity, { id: stray.reference }));
    expect(await reconcile()).toEqual([]);
    await expectLedgerSound(server.deps.db);
  });

  it("settles a withdrawal from the provider's Transfer when the ledger never heard the answer; the backup's read reports it", async () => {
    const cy = await buildUser(server);
    await readyPayoutsFor(server, cy);
    await credit(server, cy, 4000);
    const held = await beginHeld(server, cy, 900);
    const sent = await server.deps.payments.payout({
      userId: cy.user._id,
      amountCents: 900,
      idempotencyKey: held.idempotencyKey,
      destination: { accountId: await accountOf(server, cy) },
    });
    // Within the grace the request may still be settling it: nothing to say yet.
    expect(await reconcile()).toEqual([]);

    const later = new Date(Date.now() + 2 * MINUTE);
    const since = new Date(later.getTime() - RECONCILE_WINDOW_MS);
    const readOnly = () =>
      server.deps.payments.listTransfers(since).then((transfers) => reconcileTransfers(server.deps.db.manager, transfers, since, later));
    expect(await readOnly()).toEqual([
      {
        reference: sent.reference,
        problem: `the provider sent $9.00 for withdrawal ${held.id} and the ledger has not settled it (still pending): the next payments.resolve or payments.reconcile settles it; if it stays, settle it by hand`,
      },
    ]);
    expect(await reconcile(later)).toEqual([]);
    const settled = await withdrawalOf(server, cy);
    expect([settled.status, settled.providerReference]).toEqual(['succeeded', sent.reference]);
    expect(await balanceOfUser(server, cy)).toBe(31);
    expect(await readOnly()).toEqual([]);

    // A Transfer that is not what the withdrawal asked for is never settled from: it is reported.
    const odd = await beginHeld(server, cy, 500);
    await recordSandboxTransfer(server.deps.db, new Date(), {
      userId: cy.user._id,
      amountCents: 600,
      destination: await accountOf(server, cy),
      idempotencyKey: odd.idempotencyKey,
    });
    const [wrong] = await reconcile(later);
    expect(wrong.problem).toBe(
      `the provider sent $6.00 to ${await accountOf(server, cy)} for withdrawal ${odd.id}, which the ledger holds as pending for $5.00 to ${await accountOf(server, cy)}: look it up at the provider and settle it by hand`,
    );
    expect((await server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: odd.id })).status).toBe('pending');
    await expectLedgerSound(server.deps.db);
  });
});

describe('withdrawals reconciled with Stripe (its Transfers list)', () => {
  let app: StripeApp;
  beforeAll(async () => {
    app = await startStripeApp();
  });
  afterAll(() => app?.close());

  it('reads Transfers from Stripe; finds one reversed, one for an unknown withdrawal, and settles one never settled', async () => {
    const { server, stripeApi } = app;
    const reconcile = (now = new Date()) => reconcileWithProvider({ db: server.deps.db, payments: server.deps.payments }, now);
    const dee = await buildUser(server);
    await readyStripePayoutsFor(app, dee);
    await credit(server, dee, 6000);
    expect((await withdraw(server, dee, 25)).status).toBe(200);
    const sent = await withdrawalOf(server, dee);
    const made = stripeApi.requests.find((r) => r.method === 'POST' && r.path === '/v1/transfers');
    expect(made?.params['metadata[idempotencyKey]']).toBe(sent.idempotencyKey);
    expect(await reconcile()).toEqual([]);
    expect(stripeApi.requests.some((r) => r.method === 'GET' && r.path === '/v1/transfers' && r.params['created[gte]'])).toBe(true);

    const tr = stripeApi.objects.get(sent.providerReference!)!;
    Object.assign(tr, { reversed: true, amount_reversed: 2500 });
    expect(await reconcile()).toEqual([
      {
        reference: sent.providerReference,
        problem: `the provider reversed $25.00 of withdrawal ${sent.id} and the ledger still counts $25.00 sent: the money is back with the platform, not with the user`,
      },
    ]);
    Object.assign(tr, { reversed: false, amount_reversed: 0 });

    const stripe = stripeClient(app.stripeConfig);
    const destination = await accountOf(server, dee);
    const stray = await stripe.transfers.create({
      amount: 1100,
      currency: 'usd',
      destination,
      metadata: { purpose: 'withdrawal', idempotencyKey: `giftlink:withdrawal:${crypto.randomUUID()}` },
    });
    expect(await reconcile()).toEqual([
      { reference: stray.id, problem: `the provider sent $11.00 to ${destination} for a withdrawal the ledger does not know` },
    ]);
    Object.assign(stripeApi.objects.get(stray.id)!, { reversed: true, amount_reversed: 1100 });

    // Stripe made the Transfer and the answer never reached the ledger.
    const held = await beginHeld(server, dee, 400);
    await stripe.transfers.create({
      amount: 400,
      currency: 'usd',
      destination,
      metadata: { userId: dee.user._id, purpose: 'withdrawal', idempotencyKey: held.idempotencyKey },
    });
    expect(await reconcile(new Date(Date.now() + 2 * MINUTE))).toEqual([]);
    expect((await server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: held.id })).status).toBe('succeeded');
    expect(await balanceOfUser(server, dee)).toBe(31);
    await expectLedgerSound(server.deps.db);
  });
});
