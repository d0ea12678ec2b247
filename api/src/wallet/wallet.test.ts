import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { buildUser, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SANDBOX_FAILING_CENTS } from '../payments/sandbox.js';
import { INVALID_AMOUNT } from '../../contract/texts.js';
import { OVERDRAWN } from './service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const DEPOSIT = '/api/billing-settings-deposit';
const WITHDRAWAL = '/api/billing-settings-withdrawal';

/** A user whose payouts are set up, so withdrawals can go out. */
async function payee(): Promise<TestUser> {
  const who = await buildUser(server);
  await readyPayoutsFor(server, who);
  return who;
}
const BALANCE = '/api/billing-settings-balance';

const post = (path: string, who: TestUser, body: unknown, headers: Record<string, string> = {}) =>
  server.request('POST', path, { token: who.token, body, headers });
const balanceOf = async (who: TestUser): Promise<number> => {
  const res = await server.request<{ balance: number }>('GET', BALANCE, { token: who.token });
  expect(res.status).toBe(200);
  return res.body.balance;
};
const transferCount = () => server.deps.db.manager.count(LedgerTransferEntity);

const expectLedgerSound = () => expectLedgerSoundIn(server.deps.db);

describe('balance, deposit and withdrawal', () => {
  it('needs a session', async () => {
    expect((await server.request('GET', BALANCE)).status).toBe(401);
    expect((await server.request('POST', DEPOSIT, { body: { balance: 5 } })).status).toBe(401);
    expect((await server.request('POST', WITHDRAWAL, { body: { balance: 5 } })).status).toBe(401);
    expect((await server.request('POST', DEPOSIT, { body: { balance: 5 }, token: 'abc.def.ghi' })).status).toBe(401);
  });

  it('starts at zero, deposits and withdraws in dollars', async () => {
    const ana = await payee();
    expect(await balanceOf(ana)).toBe(0);

    const dep = await post(DEPOSIT, ana, { userId: ana.user._id, balance: 25.5 });
    expect(dep.status).toBe(200);
    expect(dep.body).toEqual({ new_balance: 25.5 });
    expect((await post(DEPOSIT, ana, { balance: '1.29' })).body).toEqual({ new_balance: 26.79 });
    expect((await post(DEPOSIT, ana, { balance: 10.1 })).body).toEqual({ new_balance: 36.89 });

    const wd = await post(WITHDRAWAL, ana, { balance: 6.89, userId: ana.user._id });
    expect(wd.status).toBe(200);
    expect(wd.body).toEqual({ new_balance: 30 });
    expect(await balanceOf(ana)).toBe(30);

    const me = await server.request('GET', '/api/auth/me', { token: ana.token });
    expect(me.body.balance).toBe(30);
    await expectLedgerSound();
  });

  it('accepts the boundaries $1 and $999,999.99, as numbers and as strings', async () => {
    const ben = await payee();
    let cents = 0;
    for (const amount of [1, '1', 999999.99, '999999.99', '1.5', 0.1 + 0.2 + 1]) {
      const res = await post(DEPOSIT, ben, { balance: amount });
      expect(res.status, String(amount)).toBe(200);
      cents += Math.round(Number(amount) * 100);
      expect(res.body.new_balance).toBe(cents / 100);
    }
    const out = await post(WITHDRAWAL, ben, { balance: 999999.99 });
    expect(out.status).toBe(200);
    expect((await post(WITHDRAWAL, ben, { balance: '1' })).status).toBe(200);
    await expectLedgerSound();
  });

  const invalid: [string, unknown][] = [
    ['0.99', 0.99],
    ['"0.99"', '0.99'],
    ['0', 0],
    ['1000000', 1000000],
    ['"1000000"', '1000000'],
    ['1000000.01', 1000000.01],
    ['1.001', 1.001],
    ['"1.001"', '1.001'],
    ['"abc"', 'abc'],
    ['""', ''],
    ['-5', -5],
    ['"-5"', '-5'],
    ['1e21', 1e21],
    ['MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER],
    ['"1e3"', '1e3'],
    ['"99999999999999999999999"', '99999999999999999999999'],
    ['null', null],
    ['true', true],
    ['[5]', [5]],
    ['{}', {}],
  ];
  it.each(invalid)('refuses %s with the amount message, moving nothing', async (_label, amount) => {
    const cleo = await payee();
    await post(DEPOSIT, cleo, { balance: 50 });
    for (const path of [DEPOSIT, WITHDRAWAL]) {
      const res = await post(path, cleo, { balance: amount });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'validation_failed', message: INVALID_AMOUNT });
    }
    expect(await balanceOf(cleo)).toBe(50);
  });

  it('refuses a missing amount, overflowing JSON numbers and malformed JSON without a 500', async () => {
    const dan = await payee();
    for (const path of [DEPOSIT, WITHDRAWAL]) {
      const missing = await post(path, dan, {});
      expect(missing.body).toEqual({ error: 'validation_failed', message: INVALID_AMOUNT });
      const infinite = await post(path, dan, '{"balance": 1e400}');
      expect(infinite.status).toBe(400);
      expect(infinite.body.message).toBe(INVALID_AMOUNT);
      const broken = await post(path, dan, '{"balance": ');
      expect(broken.status).toBe(400);
      const wrongUserType = await post(path, dan, { balance: 5, userId: 42 });
      expect(wrongUserType.status).toBe(400);
    }
    expect(await balanceOf(dan)).toBe(0);
  });

  it("answers 403 for another user's userId and moves nothing", async () => {
    const eve = await payee();
    const fay = await payee();
    await post(DEPOSIT, fay, { balance: 20 });
    const before = await transferCount();
    const dep = await post(DEPOSIT, eve, { userId: fay.user._id, balance: 5 });
    expect(dep.status).toBe(403);
    expect(dep.body.error).toBe('forbidden');
    const wd = await post(WITHDRAWAL, eve, { userId: fay.user._id, balance: 5 });
    expect(wd.status).toBe(403);
    expect(await balanceOf(eve)).toBe(0);
    expect(await balanceOf(fay)).toBe(20);
    expect(await transferCount()).toBe(before);
  });

  it('refuses a withdrawal above the balance and changes nothing', async () => {
    const gus = await payee();
    await post(DEPOSIT, gus, { balance: 10 });
    const before = await transferCount();
    for (const amount of [10.01, 11, 999999.99]) {
      const res = await post(WITHDRAWAL, gus, { balance: amount });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'insufficient_funds', message: OVERDRAWN });
    }
    expect(await balanceOf(gus)).toBe(10);
    expect(await transferCount()).toBe(before);
    expect((await post(WITHDRAWAL, gus, { balance: 10 })).body).toEqual({ new_balance: 0 });
    expect((await post(WITHDRAWAL, gus, { balance: 1 })).body.message).toBe(OVERDRAWN);
    await expectLedgerSound();
  });

  it('lets exactly one of 20 concurrent withdrawals of the whole balance through', async () => {
    const hal = await payee();
    await post(DEPOSIT, hal, { balance: 75.25 });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(WITHDRAWAL, hal, { balance: 75.25 })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].body).toEqual({ new_balance: 0 });
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.message).toBe(OVERDRAWN);
    expect(await balanceOf(hal)).toBe(0);
    await expectLedgerSound();
  });

  it('keeps the ledger sound under concurrent deposits and withdrawals of several users', async () => {
    const users = await Promise.all([payee(), payee(), payee()]);
    await Promise.all(users.map((u) => post(DEPOSIT, u, { balance: 10 })));
    const results = await Promise.all(
      Array.from({ length: 36 }, (_, i) => {
        const who = users[i % 3];
        return i % 2 === 0 ? post(WITHDRAWAL, who, { balance: 3 }) : post(DEPOSIT, who, { balance: 1 });
      }),
    );
    expect(results.every((r) => r.status === 200 || (r.status === 400 && r.body.message === OVERDRAWN))).toBe(true);
    for (const u of users) {
      let expected = 10;
      results.forEach((r, i) => {
        if (users[i % 3] !== u || r.status !== 200) return;
        expected += i % 2 === 0 ? -3 : 1;
      });
      const balance = await balanceOf(u);
      expect(balance).toBe(expected);
      expect(balance).toBeGreaterThanOrEqual(0);
    }
    await expectLedgerSound();
  });

  it('keeps the balance when the payment provider declines or a payout fails', async () => {
    const ida = await payee();
    await post(DEPOSIT, ida, { balance: 5000 });
    const before = await transferCount();
    const declined = await post(DEPOSIT, ida, { balance: SANDBOX_FAILING_CENTS / 100 });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toBe('payment_declined');
    expect(await transferCount()).toBe(before);
    const failed = await post(WITHDRAWAL, ida, { balance: SANDBOX_FAILING_CENTS / 100 });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('payout_failed');
    expect(await balanceOf(ida)).toBe(5000);
    // A withdrawal is held from the balance before the provider is called (outside any
    // transaction); a failed payout gives the held money back: two transfers that cancel out.
    expect(await transferCount()).toBe(before + 2);
    await expectLedgerSound();
  });
});

describe('Idempotency-Key', () => {
  const key = (name: string) => ({ 'Idempotency-Key': `${name}-${Math.random().toString(36).slice(2)}` });

  it('replays the first answer of a repeated deposit and withdrawal, moving money once', async () => {
    const jo = await payee();
    const k = key('dep');
    const first = await post(DEPOSIT, jo, { balance: 12 }, k);
    const again = await post(DEPOSIT, jo, { balance: 12 }, k);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(jo)).toBe(12);

    const w = key('wd');
    const out = await post(WITHDRAWAL, jo, { balance: 2 }, w);
    await post(DEPOSIT, jo, { balance: 1 }); // the replay still answers the first new_balance
    const outAgain = await post(WITHDRAWAL, jo, { balance: 2 }, w);
    expect(out.body).toEqual({ new_balance: 10 });
    expect(outAgain.body).toEqual({ new_balance: 10 });
    expect(await balanceOf(jo)).toBe(11);
    await expectLedgerSound();
  });

  it('moves money once when requests with the same key race', async () => {
    const kim = await payee();
    const k = key('race');
    const deposits = await Promise.all(Array.from({ length: 10 }, () => post(DEPOSIT, kim, { balance: 7 }, k)));
    for (const r of deposits) expect(r.body).toEqual({ new_balance: 7 });
    expect(deposits.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await balanceOf(kim)).toBe(7);

    const w = key('race-wd');
    const withdrawals = await Promise.all(Array.from({ length: 10 }, () => post(WITHDRAWAL, kim, { balance: 3 }, w)));
    for (const r of withdrawals) expect(r.body).toEqual({ new_balance: 4 });
    expect(await balanceOf(kim)).toBe(4);
    await expectLedgerSound();
  });

  it('refuses a key reused for another amount or another call; keys are per user', async () => {
    const lee = await payee();
    const max = await payee();
    const k = key('reuse');
    expect((await post(DEPOSIT, lee, { balance: 5 }, k)).status).toBe(200);
    const otherAmount = await post(DEPOSIT, lee, { balance: 6 }, k);
    expect(otherAmount.status).toBe(422);
    expect(otherAmount.body.error).toBe('idempotency_key_reused');
    expect((await post(WITHDRAWAL, lee, { balance: 5 }, k)).status).toBe(422);
    const sameKeyOtherUser = await post(DEPOSIT, max, { balance: 5 }, k);
    expect(sameKeyOtherUser.status).toBe(200);
    expect(sameKeyOtherUser.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(lee)).toBe(5);
    expect(await balanceOf(max)).toBe(5);
  });

  it('stores nothing for a refused request, so the same key can be retried', async () => {
    const ned = await payee();
    const k = key('retry');
    const refused = await post(WITHDRAWAL, ned, { balance: 4 }, k);
    expect(refused.body.message).toBe(OVERDRAWN);
    await post(DEPOSIT, ned, { balance: 4 });
    const retried = await post(WITHDRAWAL, ned, { balance: 4 }, k);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ new_balance: 0 });
  });

  it('refuses a malformed key', async () => {
    const ola = await payee();
    for (const bad of ['x'.repeat(256), 'has space', 'tab\there']) {
      const res = await post(DEPOSIT, ola, { balance: 5 }, { 'Idempotency-Key': bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe('invalid_idempotency_key');
    }
    expect(await balanceOf(ola)).toBe(0);
  });
});
