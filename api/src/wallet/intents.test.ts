import crypto from 'node:crypto';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { IdempotencyRecordEntity } from '../http/idempotency-entity.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { SYSTEM_PAYMENTS, SYSTEM_PAYOUTS_PENDING, balanceOf } from '../money/ledger.js';
import { buildConversation } from '../realtime/testing.js';
import {
  balanceOfUser,
  buildUsers,
  depositFor,
  readyPayoutsFor,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/server.js';
import { PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { resolvePendingPayments } from './intents.js';
import type { CardChargeRequest, CardSource, PaymentRequest, PaymentResult, WalletPayments } from '../payments/provider.js';
import { SANDBOX_FAILING_CENTS, SandboxPayments } from '../payments/sandbox.js';
import { runMoneySteps } from '../http/unit-of-work.js';
import { presentBalance } from './presenter.js';
import { depositSteps, withdrawalSteps, type MoneyRequest, type WalletDeps } from './service.js';

type Keyed = MoneyRequest & { idempotencyKey: string | undefined };
/** A deposit and a withdrawal as their routes run them: the steps once per key, the outcome presented. */
const deposit = (deps: WalletDeps, req: Keyed) =>
  runMoneySteps(deps, req.idempotencyKey, req.userId, depositSteps(deps, req), presentBalance);
const withdraw = (deps: WalletDeps, req: Keyed) =>
  runMoneySteps(deps, req.idempotencyKey, req.userId, withdrawalSteps(deps, req), presentBalance);

/**
 * Payments outside transactions: the provider is called between two transactions, a
 * slow provider holds no one else's write, and what a crash leaves pending is settled exactly once.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The sandbox, counting its calls, optionally slow or failing with an unknown outcome after doing the work. */
class TestProvider implements WalletPayments {
  readonly name = 'test';
  readonly calls: { op: 'charge' | 'payout'; request: PaymentRequest }[] = [];
  private readonly sandbox = new SandboxPayments(server.deps.db, () => new Date());
  constructor(private readonly behaviour: { delayMs?: number; lostAnswer?: boolean | (() => Error) } = {}) {}

  private async run(op: 'charge' | 'payout', request: PaymentRequest): Promise<PaymentResult> {
    this.calls.push({ op, request });
    if (this.behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, this.behaviour.delayMs));
    const answer = (op === 'charge' ? this.sandbox.charge(request) : this.sandbox.payout(request)).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const settled = await answer;
    // The provider decided, but its answer never arrived (a timeout, a dropped connection).
    const lost = this.behaviour.lostAnswer;
    if (lost) throw typeof lost === 'function' ? lost() : new Error('socket hang up');
    if ('error' in settled) throw settled.error;
    return settled.result;
  }
  charge = (request: PaymentRequest) => this.run('charge', request);
  payout = (request: PaymentRequest) => this.run('payout', request);
  chargeCard = (request: CardChargeRequest) => this.sandbox.chargeCard(request);
  savedCard = (userId: string) => this.sandbox.savedCard(userId);
  removeCard = (userId: string) => this.sandbox.removeCard(userId);
  startCardPayment = () => this.sandbox.startCardPayment();
  readCardPayment = () => this.sandbox.readCardPayment();
  cancelCardPayment = () => this.sandbox.cancelCardPayment();
  authoriseCard = (request: CardChargeRequest) => this.sandbox.authoriseCard(request);
  captureCard = (reference: string) => this.sandbox.captureCard(reference);
  cancelCardHold = (reference: string) => this.sandbox.cancelCardHold(reference);
  refundCard = (reference: string) => this.sandbox.refundCard(reference);
  cardFingerprint = (userId: string, source: CardSource) => this.sandbox.cardFingerprint(userId, source);
  listCardPayments = (since: Date) => this.sandbox.listCardPayments(since);
  listTransfers = (since: Date) => this.sandbox.listTransfers(since);
}

const db = () => server.deps.db;

/** Users whose payouts are set up, so their withdrawals can go out. */
async function payees(count: number, prefix: string): Promise<TestUser[]> {
  const users = await buildUsers(server, count, prefix);
  for (const who of users) await readyPayoutsFor(server, who);
  return users;
}
const MINUTE = 60_000;
const later = (ms = 2 * MINUTE) => new Date(Date.now() + ms);
const intentsOf = (who: TestUser) =>
  db().manager.find(PaymentIntentEntity, { where: { userId: who.user._id }, order: { createdAt: 'ASC' } });

const expectLedgerSound = () => expectLedgerSoundIn(db());

/** A deposit whose process stopped after recording its intent (step 1), before settling (step 3). */
async function crashedDeposit(who: TestUser, amountCents: number, key: string, createdAt = new Date()): Promise<PaymentIntent> {
  // By default made now and recovered at `later()`: the server's own scheduler (real clock) leaves it alone.
  const id = crypto.randomUUID();
  const recordId = crypto.randomUUID();
  const intent: PaymentIntent = {
    id,
    userId: who.user._id,
    kind: 'deposit',
    amountCents,
    idempotencyKey: `giftlink:deposit:${id}`,
    idempotencyRecordId: recordId,
    status: 'pending',
    providerReference: null,
    resultBalanceCents: null,
    createdAt,
    updatedAt: createdAt,
  };
  await db().transaction(async (em) => {
    await em.insert(IdempotencyRecordEntity, {
      id: recordId,
      userId: who.user._id,
      key,
      scope: 'wallet.deposit',
      requestHash: crypto.createHash('sha256').update('wallet.deposit').update('\0').update(JSON.stringify(amountCents)).digest('hex'),
      status: 0,
      response: null,
      createdAt,
    });
    await em.insert(PaymentIntentEntity, { ...intent });
  });
  return intent;
}

describe('deposits and withdrawals between two transactions', () => {
  it('records the intent, calls the provider with its key, and settles it', async () => {
    const [ann] = await payees(1, 'pi');
    const payments = new TestProvider();
    expect((await deposit({ db: db(), payments }, { userId: ann.user._id, amountCents: 2_500, idempotencyKey: undefined })).body).toEqual({
      new_balance: 25,
    });
    expect((await withdraw({ db: db(), payments }, { userId: ann.user._id, amountCents: 1_000, idempotencyKey: undefined })).body).toEqual({
      new_balance: 15,
    });
    const [dep, wd] = await intentsOf(ann);
    expect(dep).toMatchObject({ kind: 'deposit', status: 'succeeded', amountCents: 2_500, resultBalanceCents: 2_500 });
    expect(wd).toMatchObject({ kind: 'withdrawal', status: 'succeeded', amountCents: 1_000, resultBalanceCents: 1_500 });
    expect(payments.calls.map((c) => [c.op, c.request.idempotencyKey])).toEqual([
      ['charge', dep.idempotencyKey],
      ['payout', wd.idempotencyKey],
    ]);
    expect(dep.providerReference).toMatch(/^ch_sandbox_/);
    expect(wd.providerReference).toMatch(/^po_sandbox_/);
    expect(await balanceOf(db().manager, SYSTEM_PAYOUTS_PENDING)).toBe(0);
    await expectLedgerSound();
  });

  it('a slow provider (2 s) holds no other write on the database', async () => {
    const [slowUser, other, friend] = await payees(3, 'pslow');
    await depositFor(server, other, 50);
    const conversation = await buildConversation(server, other, friend, false);
    const payments = new TestProvider({ delayMs: 2_000 });

    const started = performance.now();
    const slow = deposit({ db: db(), payments }, { userId: slowUser.user._id, amountCents: 1_000, idempotencyKey: undefined }).then(
      (answer) => ({ answer, ms: performance.now() - started }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the slow charge is under way
    const t0 = performance.now();
    const dep = await server.request('POST', '/api/billing-settings-deposit', { token: other.token, body: { balance: 5 } });
    const depositMs = performance.now() - t0;
    const t1 = performance.now();
    const wd = await server.request('POST', '/api/billing-settings-withdrawal', { token: other.token, body: { balance: 2 } });
    const withdrawalMs = performance.now() - t1;
    const t2 = performance.now();
    const sent = await server.request('POST', '/messages/send', {
      token: other.token,
      body: { conversationId: conversation.id, text: 'hi' },
    });
    const messageMs = performance.now() - t2;
    const done = await slow;

    expect([dep.status, wd.status, sent.status]).toEqual([200, 200, 201]);
    expect(done.answer.body).toEqual({ new_balance: 10 });
    expect(done.ms).toBeGreaterThanOrEqual(2_000);
    // Each finished while the slow charge was still waiting on its provider.
    for (const ms of [depositMs, withdrawalMs, messageMs]) expect(ms).toBeLessThan(500);
    console.info(
      `slow provider 2000 ms: slow deposit ${done.ms.toFixed(0)} ms; meanwhile another user's deposit ${depositMs.toFixed(1)} ms, ` +
        `withdrawal ${withdrawalMs.toFixed(1)} ms, message ${messageMs.toFixed(1)} ms (${db().isPostgres ? 'PostgreSQL' : 'SQLite'})`,
    );
    await expectLedgerSound();
  });

  it('a repeat of the key while the first is with the provider waits for its answer; the provider is asked once', async () => {
    const [bea] = await payees(1, 'pwait');
    const payments = new TestProvider({ delayMs: 500 });
    const key = `wait-${crypto.randomUUID()}`;
    const req = { userId: bea.user._id, amountCents: 700, idempotencyKey: key };
    const answers = await Promise.all([
      deposit({ db: db(), payments }, req),
      deposit({ db: db(), payments }, req),
      deposit({ db: db(), payments }, req),
    ]);
    for (const a of answers) expect(a.body).toEqual({ new_balance: 7 });
    expect(answers.filter((a) => a.replayed)).toHaveLength(2);
    expect(payments.calls).toHaveLength(1);
    expect(await balanceOfUser(server, bea)).toBe(7);
  });
});

describe('recovery: resolvePendingPayments', () => {
  it('settles a deposit a crash left pending exactly once, and the client retry replays its answer', async () => {
    const [cid] = await payees(1, 'pcrash');
    const key = `crash-${crypto.randomUUID()}`;
    const intent = await crashedDeposit(cid, 1_234, key);
    const payments = new TestProvider();
    const transfersBefore = await db().manager.count(LedgerTransferEntity);

    // Two recoveries at once (two processes, or a restart while the scheduler runs): one settles it.
    const runs = await Promise.all([
      resolvePendingPayments({ db: db(), payments }, later()),
      resolvePendingPayments({ db: db(), payments }, later()),
    ]);
    expect(runs.reduce((n, r) => n + r.succeeded, 0)).toBe(1);
    expect(payments.calls.every((c) => c.request.idempotencyKey === intent.idempotencyKey)).toBe(true);
    expect(await resolvePendingPayments({ db: db(), payments }, later())).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });

    expect(await balanceOfUser(server, cid)).toBe(12.34);
    expect(await db().manager.count(LedgerTransferEntity)).toBe(transfersBefore + 1);
    const settled = await db().manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id });
    expect(settled).toMatchObject({ status: 'succeeded', resultBalanceCents: 1_234 });
    // Same key: the sandbox answers the same reference.
    expect(settled.providerReference).toBe((await new SandboxPayments(server.deps.db, () => new Date()).charge(intent)).reference);

    const retry = await server.request('POST', '/api/billing-settings-deposit', {
      token: cid.token,
      body: { balance: 12.34 },
      headers: { 'Idempotency-Key': key },
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ new_balance: 12.34 });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOfUser(server, cid)).toBe(12.34);
    await expectLedgerSound();
  });

  it('settles a withdrawal whose payout answer was lost: held meanwhile, paid out once', async () => {
    const [dee] = await payees(1, 'plost');
    await depositFor(server, dee, 30);
    const key = `lost-${crypto.randomUUID()}`;
    const lost = new TestProvider({ lostAnswer: true });
    const failed = withdraw({ db: db(), payments: lost }, { userId: dee.user._id, amountCents: 1_000, idempotencyKey: key });
    await expect(failed).rejects.toMatchObject({ status: 502, code: 'payment_pending' });
    // The money left the balance at once and cannot be spent twice.
    expect(await balanceOfUser(server, dee)).toBe(20);
    const out = await server.request('POST', '/api/billing-settings-withdrawal', { token: dee.token, body: { balance: 25 } });
    expect(out.status).toBe(400);
    const history = await server.request<{ entries: { kind: string; amount: number }[] }>('GET', '/api/wallet/history', {
      token: dee.token,
    });
    expect(history.body.entries[0]).toMatchObject({ kind: 'withdrawal', amount: -10 });

    // Not yet a minute old: recovery leaves it to the request.
    expect(await resolvePendingPayments({ db: db(), payments: new TestProvider() })).toMatchObject({ succeeded: 0 });
    const payments = new TestProvider();
    expect(await resolvePendingPayments({ db: db(), payments }, later())).toMatchObject({ succeeded: 1 });
    expect(payments.calls.map((c) => c.request.idempotencyKey)).toEqual(lost.calls.map((c) => c.request.idempotencyKey));
    expect(await resolvePendingPayments({ db: db(), payments }, later())).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });

    expect(await balanceOfUser(server, dee)).toBe(20);
    expect(await balanceOf(db().manager, SYSTEM_PAYOUTS_PENDING)).toBe(0);
    const [, wd] = await intentsOf(dee);
    expect(wd).toMatchObject({ status: 'succeeded', kind: 'withdrawal' });
    const retry = await withdraw({ db: db(), payments }, { userId: dee.user._id, amountCents: 1_000, idempotencyKey: key });
    expect(retry).toEqual({ status: 200, body: { new_balance: 20 }, replayed: true });
    await expectLedgerSound();
  });

  it('fails a pending payment the provider declines: nothing moves, the held money returns, the key is free again', async () => {
    const [eli] = await payees(1, 'pdecl');
    await depositFor(server, eli, 5_000);
    const lost = new TestProvider({ lostAnswer: true });
    const amountCents = SANDBOX_FAILING_CENTS;
    const key = `decl-${crypto.randomUUID()}`;
    await expect(withdraw({ db: db(), payments: lost }, { userId: eli.user._id, amountCents, idempotencyKey: key })).rejects.toMatchObject({
      code: 'payment_pending',
    });
    const depositKey = `decl-dep-${crypto.randomUUID()}`;
    await crashedDeposit(eli, amountCents, depositKey);
    expect(await balanceOfUser(server, eli)).toBe(999.98);

    expect(await resolvePendingPayments({ db: db(), payments: new TestProvider() }, later())).toMatchObject({ failed: 2, succeeded: 0 });
    expect(await balanceOfUser(server, eli)).toBe(5_000);
    expect((await intentsOf(eli)).slice(1).map((i) => i.status)).toEqual(['failed', 'failed']);
    expect(await db().manager.countBy(IdempotencyRecordEntity, { userId: eli.user._id })).toBe(0);
    // The key is free: a retry is evaluated afresh (and declined again by the sandbox).
    const retry = await server.request('POST', '/api/billing-settings-deposit', {
      token: eli.token,
      body: { balance: amountCents / 100 },
      headers: { 'Idempotency-Key': depositKey },
    });
    expect(retry.status).toBe(402);
    expect(await balanceOf(db().manager, SYSTEM_PAYOUTS_PENDING)).toBe(0);
    await expectLedgerSound();
  });

  it('leaves an unknown outcome pending and asks again next time', async () => {
    const [fay] = await payees(1, 'punk');
    await crashedDeposit(fay, 500, `unk-${crypto.randomUUID()}`);
    const before = await balanceOf(db().manager, SYSTEM_PAYMENTS);
    const stillLost = new TestProvider({ lostAnswer: true });
    expect(await resolvePendingPayments({ db: db(), payments: stillLost }, later())).toMatchObject({ unresolved: 1, succeeded: 0 });
    // A provider's 5xx (e.g. Stripe's connection error, mapped to an AppError) is no answer either.
    const providerDown = new TestProvider({
      lostAnswer: () => new AppError(502, 'payment_provider_error', 'The payment provider did not answer.'),
    });
    expect(await resolvePendingPayments({ db: db(), payments: providerDown }, later())).toMatchObject({ unresolved: 1, failed: 0 });
    expect(await balanceOfUser(server, fay)).toBe(0);
    expect(await resolvePendingPayments({ db: db(), payments: new TestProvider() }, later())).toMatchObject({ succeeded: 1 });
    expect(await balanceOfUser(server, fay)).toBe(5);
    expect(await balanceOf(db().manager, SYSTEM_PAYMENTS)).toBe(before - 500);
    await expectLedgerSound();
  });

  it('a server starting up settles what a crash left pending', async () => {
    const [gil] = await payees(1, 'pstart');
    const key = `start-${crypto.randomUUID()}`;
    const intent = await crashedDeposit(gil, 4_200, key, new Date(Date.now() - 5 * MINUTE));
    const restarted = await startTestServer({ share: server });
    try {
      await expect.poll(() => balanceOfUser(server, gil), { timeout: 5_000 }).toBe(42);
    } finally {
      await restarted.close();
    }
    expect(await db().manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id })).toMatchObject({ status: 'succeeded' });
    expect(await resolvePendingPayments({ db: db(), payments: new TestProvider() }, later())).toMatchObject({ succeeded: 0 });
    expect(await balanceOfUser(server, gil)).toBe(42);
    await expectLedgerSound();
  });
});
