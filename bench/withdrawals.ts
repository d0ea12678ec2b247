/**
 * What a withdrawal costs the server: users with sandbox payouts ready and money to take out, the
 * scenario that withdraws it over HTTP (bench/load.ts `withdrawals`), and the check that every 200
 * became one paid-out withdrawal with the ledger sound.
 */
import { ledgerInvariants, ledgerProblems } from '../api/src/money/ledger.js';
import { readyPayoutsFor, type TestServer, type TestUser } from '../api/src/testing/server.js';
import { PaymentIntentEntity } from '../api/src/wallet/entity.js';
import type { LoadResult, LoadSpec } from './load.js';
import type { Row } from './report.js';
import { seedGivers } from './seed.js';

/** More users than connections, so withdrawals in flight together are different users'. */
const WITHDRAWERS = 100;
const WITHDRAWAL_DOLLARS = 1;
export const WITHDRAWAL_SCENARIO = 'POST /api/billing-settings-withdrawal (sandbox payouts ready)';

/** Users with $1,000 each and their sandbox payouts ready (Stripe's test bank account that pays out). */
export async function seedWithdrawers(server: TestServer): Promise<TestUser[]> {
  const users = await seedGivers(server, WITHDRAWERS, 100_000);
  for (const u of users) await readyPayoutsFor(server, u);
  return users;
}

export function withdrawalSpec(base: Omit<LoadSpec, 'kind' | 'path'>, users: TestUser[]): LoadSpec {
  return {
    ...base,
    kind: 'withdrawals',
    path: '/api/billing-settings-withdrawal',
    withdrawals: { tokens: users.map((u) => u.token), userIds: users.map((u) => u.user._id), amount: WITHDRAWAL_DOLLARS },
  };
}

/** Withdrawals paid out once the requests autocannon left in flight are done: unchanged for 300 ms. */
async function settledWithdrawals(server: TestServer): Promise<{ succeeded: number; other: number }> {
  const count = () => server.deps.db.manager.countBy(PaymentIntentEntity, { kind: 'withdrawal', status: 'succeeded' });
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 100 && stable < 3; i++) {
    const n = await count();
    stable = n === last ? stable + 1 : 0;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  const all = await server.deps.db.manager.countBy(PaymentIntentEntity, { kind: 'withdrawal' });
  return { succeeded: last, other: all - last };
}

/**
 * Every 200 counted (and the `before` paid out ahead of the run) is one paid-out withdrawal, up to
 * one a connection uncounted; none failed or pending; the ledger sound.
 */
export async function checkWithdrawals(
  server: TestServer,
  result: LoadResult,
  spec: LoadSpec,
  before: number,
): Promise<NonNullable<Row['check']>> {
  const { succeeded, other } = await settledWithdrawals(server);
  const counted = result.ok2xxIncludingWarmup + before;
  const slack = spec.connections * (spec.warmup > 0 ? 2 : 1);
  const ledger = ledgerProblems(await ledgerInvariants(server.deps.db)).join('; ');
  const ledgerOk = ledger === '';
  const ok = succeeded >= counted && succeeded <= counted + slack && other === 0 && ledgerOk;
  console.log(
    `    withdrawals paid out ${succeeded}, 200s counted ${counted} (+ up to ${slack} in flight), failed or pending ${other}, ` +
      `ledger invariants ${ledgerOk ? 'hold' : `BROKEN ${ledger}`}${ok ? '' : '  <-- CHECK FAILED'}`,
  );
  return { recorded: succeeded, counted, inFlightSlack: slack, ledgerOk, ok };
}

/** A withdrawal's CPU beside a `/healthz`'s of the same run: the server's, and PostgreSQL's where it runs. */
export function printWithdrawalCost(rows: Row[]): void {
  for (const w of rows.filter((r) => r.scenario === WITHDRAWAL_SCENARIO)) {
    const healthz = rows.find((r) => r.database === w.database && r.scenario.startsWith('GET /healthz'));
    if (!healthz || w.serverCpuUs === undefined || !healthz.serverCpuUs) continue;
    const times = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${(a / b).toFixed(1)}×` : '?');
    const postgres =
      w.database === 'postgres'
        ? `, and ${w.postgresCpuUs?.toFixed(0) ?? '?'} µs of PostgreSQL (${times(w.postgresCpuUs, healthz.postgresCpuUs)} a /healthz's ` +
          `${healthz.postgresCpuUs?.toFixed(0) ?? '?'} µs); the machine ${w.machineCpuUs?.toFixed(0) ?? '?'} µs, ` +
          `${times(w.machineCpuUs, healthz.machineCpuUs)} a /healthz's`
        : '';
    console.log(
      `  ${w.database}: a withdrawal costs ${w.serverCpuUs.toFixed(0)} µs of the server's CPU, ` +
        `${times(w.serverCpuUs, healthz.serverCpuUs)} a /healthz's ${healthz.serverCpuUs.toFixed(0)} µs${postgres}`,
    );
  }
}
