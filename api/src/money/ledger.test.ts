import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { startTestServer, type TestServer } from '../testing/server.js';
import { UserEntity, newUserRecord } from '../users/entity.js';
import { LedgerEntryEntity, LedgerTransferEntity } from './entity.js';
import { withIdempotency } from '../http/idempotency.js';
import {
  SYSTEM_PAYMENTS,
  balanceOf,
  entriesTotal,
  escrowAccount,
  transfer,
  userAccount,
  type AccountKey,
  type TransferInput,
} from './ledger.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const db = () => server.deps.db;

/** A user row straight in the database: the ledger needs no more (and argon2 would be slow here). */
async function makeUser(): Promise<string> {
  const id = crypto.randomUUID();
  const user = newUserRecord({ id, username: `l${id.slice(0, 12)}`, email: `${id.slice(0, 12)}@ledger.test`, passwordHash: 'x' });

  await db().transaction((em) => em.insert(UserEntity, user));
  return id;
}

const move = (input: TransferInput) => db().transaction((em) => transfer(em, input));
const balance = (key: AccountKey) => balanceOf(db().manager, key);

async function expectSound() {
  await expectLedgerSound(db());
}

describe('transfer', () => {
  it('writes two entries summing to zero and moves both cached balances', async () => {
    const a = await makeUser();
    const b = await makeUser();
    const dep = await move({ from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents: 1000, kind: 'deposit', actorUserId: a });
    expect(dep.toBalanceCents).toBe(1000);
    const give = await move({ from: userAccount(a), to: userAccount(b), amountCents: 250, kind: 'give', actorUserId: a });
    expect(give).toMatchObject({ fromBalanceCents: 750, toBalanceCents: 250 });
    const entries = await db().manager.findBy(LedgerEntryEntity, { transferId: give.transferId });
    expect(entries.map((e) => e.amountCents).sort((x, y) => x - y)).toEqual([-250, 250]);
    expect(await entriesTotal(db().manager, userAccount(a))).toBe(750);
    const row = await db().manager.findOneByOrFail(LedgerTransferEntity, { id: give.transferId });
    expect(row).toMatchObject({ kind: 'give', actorUserId: a });
    await expectSound();
  });

  it('holds escrow, never overdraws it, and lets system accounts go negative', async () => {
    const a = await makeUser();
    const link = escrowAccount(crypto.randomUUID());
    await move({ from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents: 500, kind: 'deposit' });
    await move({ from: userAccount(a), to: link, amountCents: 300, kind: 'escrow', actorUserId: a });
    expect(await balance(link)).toBe(300);
    await expect(move({ from: link, to: userAccount(a), amountCents: 301, kind: 'refund' })).rejects.toMatchObject({
      code: 'insufficient_funds',
    });
    await move({ from: link, to: userAccount(a), amountCents: 300, kind: 'refund' });
    expect(await balance(link)).toBe(0);
    expect(await balance(userAccount(a))).toBe(500);
    expect(await balance(SYSTEM_PAYMENTS)).toBeLessThan(0);
    await expectSound();
  });

  it("throws the caller's error when a user cannot cover the amount, writing nothing", async () => {
    const a = await makeUser();
    const before = await db().manager.count(LedgerEntryEntity);
    const custom = new AppError(400, 'insufficient_funds', 'Not enough.');
    await expect(
      move({ from: userAccount(a), to: SYSTEM_PAYMENTS, amountCents: 1, kind: 'withdrawal', insufficient: () => custom }),
    ).rejects.toBe(custom);
    await expect(move({ from: userAccount(a), to: SYSTEM_PAYMENTS, amountCents: 1, kind: 'withdrawal' })).rejects.toMatchObject({
      message: 'Add money to your account balance.',
    });
    // From one person to another (on PostgreSQL one statement for both balances and the records).
    const b = await makeUser();
    await expect(move({ from: userAccount(a), to: userAccount(b), amountCents: 1, kind: 'give', insufficient: () => custom })).rejects.toBe(
      custom,
    );
    expect(await db().manager.count(LedgerEntryEntity)).toBe(before);
    expect([await balance(userAccount(a)), await balance(userAccount(b))]).toEqual([0, 0]);
    await expectSound();
  });

  it('moves nothing between two people when either is unknown or the receiver would pass the safe range', async () => {
    const a = await makeUser();
    await move({ from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents: 500, kind: 'deposit' });
    const before = await db().manager.count(LedgerEntryEntity);
    const nobody = crypto.randomUUID();
    // Each way round, so the unknown account is first and last in key order.
    for (const [from, to] of [
      [a, nobody],
      [nobody, a],
    ])
      await expect(move({ from: userAccount(from), to: userAccount(to), amountCents: 5, kind: 'give' })).rejects.toMatchObject({
        status: 404,
      });
    const rich = await makeUser();
    const huge = Number.MAX_SAFE_INTEGER - 10;
    const outside: AccountKey = `system:overflow-${crypto.randomUUID()}`;
    await move({ from: outside, to: userAccount(rich), amountCents: huge, kind: 'deposit' });
    await expect(move({ from: userAccount(a), to: userAccount(rich), amountCents: 11, kind: 'give' })).rejects.toMatchObject({
      code: 'amount_too_large',
    });
    expect([await balance(userAccount(a)), await balance(userAccount(rich))]).toEqual([500, huge]);
    expect(await db().manager.count(LedgerEntryEntity)).toBe(before + 2);
    // Sums past 2^53 are not exact in JavaScript: the huge amount goes back before the invariants are summed.
    await move({ from: userAccount(rich), to: outside, amountCents: huge, kind: 'withdrawal' });
    await expectSound();
  });

  it('refuses amounts that are not positive safe integers, unknown users and balances past the safe range', async () => {
    const a = await makeUser();
    for (const amountCents of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1, Infinity, NaN])
      await expect(move({ from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents, kind: 'deposit' })).rejects.toMatchObject({
        status: 400,
      });
    await expect(
      move({ from: SYSTEM_PAYMENTS, to: userAccount(crypto.randomUUID()), amountCents: 5, kind: 'deposit' }),
    ).rejects.toMatchObject({ status: 404 });

    const rich = await makeUser();
    const outside: AccountKey = `system:overflow-${crypto.randomUUID()}`;
    const huge = Number.MAX_SAFE_INTEGER - 10;
    await move({ from: outside, to: userAccount(rich), amountCents: huge, kind: 'deposit' });
    await expect(move({ from: outside, to: userAccount(rich), amountCents: 11, kind: 'deposit' })).rejects.toMatchObject({
      code: 'amount_too_large',
    });
    await expect(move({ from: SYSTEM_PAYMENTS, to: userAccount(rich), amountCents: 11, kind: 'deposit' })).rejects.toMatchObject({
      code: 'amount_too_large',
    });
    expect(await balance(userAccount(rich))).toBe(huge);
    await move({ from: userAccount(rich), to: outside, amountCents: huge, kind: 'withdrawal' });
    expect(await balance(outside)).toBe(0);
    await expectSound();
  });

  it('lets one of many concurrent spends of the same money through', async () => {
    const a = await makeUser();
    const b = await makeUser();
    await move({ from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents: 100, kind: 'deposit' });
    const results = await Promise.allSettled(
      Array.from({ length: 15 }, () => move({ from: userAccount(a), to: userAccount(b), amountCents: 100, kind: 'give' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await balance(userAccount(b))).toBe(100);
    await expectSound();
  });

  it('moves money both ways between the same people at once without a deadlock', async () => {
    const people = [await makeUser(), await makeUser(), await makeUser()];
    for (const id of people) await move({ from: SYSTEM_PAYMENTS, to: userAccount(id), amountCents: 10_000, kind: 'deposit' });
    // Every ordered pair, ten times over, all at once: each transfer locks two rows, in opposite
    // orders for A→B and B→A unless every transfer takes them in one order.
    const pairs = people.flatMap((from) => people.filter((to) => to !== from).map((to) => [from, to] as const));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        pairs.map(([from, to]) => move({ from: userAccount(from), to: userAccount(to), amountCents: 7, kind: 'give' })),
      ).flat(),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    // Each sends and receives the same amount.
    for (const id of people) expect(await balance(userAccount(id))).toBe(10_000);
    await expectSound();
  });
});

describe('withIdempotency', () => {
  it('runs the work once per (user, key), also when repeats race', async () => {
    const a = await makeUser();
    let runs = 0;
    const attempt = () =>
      withIdempotency(db(), { key: 'k-1', userId: a, scope: 'test.deposit', input: 500 }, async (em) => {
        runs += 1;
        const moved = await transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(a), amountCents: 500, kind: 'deposit' });
        return { status: 201, body: { cents: moved.toBalanceCents } };
      });
    const answers = await Promise.all(Array.from({ length: 8 }, attempt));
    expect(runs).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect(answer).toMatchObject({ status: 201, body: { cents: 500 } });
    expect(answers.filter((x) => !x.replayed)).toHaveLength(1);
    expect(await balance(userAccount(a))).toBe(500);
    expect((await attempt()).replayed).toBe(true);
    await expect(
      withIdempotency(db(), { key: 'k-1', userId: a, scope: 'test.other', input: 500 }, async () => ({ status: 200, body: {} })),
    ).rejects.toMatchObject({ status: 422 });
    await expectSound();
  });
});

type Op =
  | { type: 'deposit'; user: number; cents: number }
  | { type: 'withdraw'; user: number; cents: number }
  | { type: 'give'; user: number; to: number; cents: number }
  | { type: 'escrow'; user: number; link: number; cents: number }
  | { type: 'release'; link: number; to: number; cents: number };

const USERS = 3;
const LINKS = 2;
const cents = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 100_000_000 }));
const who = fc.integer({ min: 0, max: USERS - 1 });
const link = fc.integer({ min: 0, max: LINKS - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('deposit' as const), user: who, cents }),
  fc.record({ type: fc.constant('withdraw' as const), user: who, cents }),
  fc.record({ type: fc.constant('give' as const), user: who, to: who, cents }),
  fc.record({ type: fc.constant('escrow' as const), user: who, link, cents }),
  fc.record({ type: fc.constant('release' as const), link, to: who, cents }),
);

describe('ledger properties', () => {
  it('keeps every invariant after every step of random deposits, withdrawals, gifts and escrow', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        const users = await Promise.all(Array.from({ length: USERS }, makeUser));
        const links = Array.from({ length: LINKS }, () => escrowAccount(crypto.randomUUID()));
        const model = new Map<AccountKey, number>();
        const get = (k: AccountKey) => model.get(k) ?? 0;

        for (const step of ops) {
          const [from, to]: [AccountKey, AccountKey] =
            step.type === 'deposit'
              ? [SYSTEM_PAYMENTS, userAccount(users[step.user])]
              : step.type === 'withdraw'
                ? [userAccount(users[step.user]), SYSTEM_PAYMENTS]
                : step.type === 'give'
                  ? [userAccount(users[step.user]), userAccount(users[step.to])]
                  : step.type === 'escrow'
                    ? [userAccount(users[step.user]), links[step.link]]
                    : [links[step.link], userAccount(users[step.to])];
          if (from === to) continue;
          const covered = from === SYSTEM_PAYMENTS || get(from) >= step.cents;
          const kind = step.type === 'withdraw' ? 'withdrawal' : step.type;
          const attempt = move({ from, to, amountCents: step.cents, kind });
          if (covered) {
            await attempt;
            model.set(from, get(from) - step.cents);
            model.set(to, get(to) + step.cents);
          } else {
            await expect(attempt).rejects.toMatchObject({ code: 'insufficient_funds' });
          }
          await expectLedgerSound(db());
          for (const key of [...users.map(userAccount), ...links]) expect(await balance(key)).toBe(get(key));
        }
      }),
      { numRuns: 25 },
    );
  });
});
