/**
 * `npm run crash-test`: does money survive a crash? Starts the compiled server (as e2e/harness.ts
 * does, built into .tmp/crash-test) on SQLite, and on PostgreSQL too when DATABASE_URL is set; sets
 * up each user's sandbox payouts (every fourth on Stripe's failing test bank account) and funds
 * them; sends concurrent deposits, gives and withdrawals, each with its own Idempotency-Key;
 * `kill -9`s the server mid-traffic, with the sandbox answering payouts a while after making them
 * (SANDBOX_PAYOUT_DELAY_MS) so the kill catches withdrawals between the provider's answer and the
 * ledger; restarts it on the same data; resends every request that got no answer, with its key,
 * until the recovery job (`payments.resolve`) has settled what the kill left pending; and checks:
 *
 * - no acknowledged request is lost and nothing is applied twice: every user's balance is the sum
 *   of the acknowledged movements (deposits in, gives out, gives received, withdrawals out);
 * - a resend of an acknowledged request replays its answer (Idempotent-Replayed) and moves nothing;
 * - every withdrawal was held once and settled once, paid out or returned, never both and never
 *   left pending; each acknowledged one was paid out; none to the failing account was, and its
 *   money is back (crash/withdrawals.ts);
 * - the ledger's invariants hold (money/ledger.ts `ledgerInvariants`).
 *
 * Options: --users N (default 12), --workers N (concurrent requests, default 16), --kill-after MS
 * (default 1500), --payout-delay MS (default 300; 0 for none), --no-build (reuse .tmp/crash-test).
 * Exits 1 when a check fails.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberArg } from '../bench/args.js';
import { loadConfig } from '../api/src/config.js';
import { openDatabase, type Database } from '../api/src/db/index.js';
import { schema } from '../api/src/schema.js';
import { ledgerInvariants, ledgerProblems } from '../api/src/money/ledger.js';
import { freshPostgres } from '../api/src/db/fresh-postgres.js';
import { call, kill9, start as startProcess } from './crash/server.js';
import { expectedBalances, fund, send, setUp, traffic, type Sent } from './crash/traffic.js';
import { checkWithdrawals, pendingIntents } from './crash/withdrawals.js';

const OUT = path.resolve('.tmp/crash-test');
const MAIN = path.join(OUT, 'api/src/main.js');
const args = process.argv.slice(2);
const opt = (name: string, fallback: number, min: number, max: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? numberArg(name, args[i + 1], min, max) : fallback;
};
const USERS = Math.round(opt('--users', 12, 2, 100));
const WORKERS = Math.round(opt('--workers', 16, 1, 200));
const KILL_AFTER_MS = opt('--kill-after', 1500, 1, 60_000);
const PAYOUT_DELAY_MS = Math.round(opt('--payout-delay', 300, 0, 60_000));
/** Every fourth user is paid out to the failing test bank account. */
const FAIL_EVERY = 4;
const FUNDING_CENTS = 2_000;
/** How long resends wait, at most, for the recovery job to settle what the kill left pending. */
const RECOVERY_WAIT_MS = 240_000;

const start = (env: Record<string, string>) => startProcess(MAIN, env);

/** Opens the stopped server's database for a check, and closes it after. */
async function withDatabase<T>(env: Record<string, string>, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(loadConfig({ ...process.env, ...env }), schema);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

async function runOn(label: string, env: Record<string, string>, dropDb?: () => Promise<void>): Promise<boolean> {
  console.log(`\n[${label}]`);
  let server = await start(env);
  let ok = true;
  try {
    const accounts = await setUp(server, USERS, FAIL_EVERY);
    const sent: Sent[] = [];
    await fund(server, accounts, FUNDING_CENTS, sent);
    const funded = sent.length;
    await traffic(server, accounts, sent, WORKERS, KILL_AFTER_MS);
    const unanswered = sent.filter((s) => s.status === undefined);
    const before = { sent: sent.length - funded, answered: sent.length - funded - unanswered.length };
    const caught = await withDatabase(env, pendingIntents);
    console.log(
      `  ${accounts.length} users (${accounts.filter((a) => a.failsPayouts).length} on the failing bank account), ${WORKERS} workers; ` +
        `killed -9 after ${KILL_AFTER_MS} ms: ${before.sent} requests sent, ${before.answered} answered, ${unanswered.length} unanswered; ` +
        `left pending by the kill: ${JSON.stringify(caught)}`,
    );

    server = await start(env);
    await Promise.all(unanswered.map((s) => send(server, s)));
    // What the kill left pending is settled by the payments.resolve job (every minute, for intents
    // over a minute old): until then a resend answers 409 idempotency_key_in_progress. Ask again.
    const pending = () =>
      unanswered.filter((s) => s.status === undefined || s.error === 'idempotency_key_in_progress' || s.error === 'payment_pending');
    const settling = pending().length;
    const waitStart = Date.now();
    while (pending().length && Date.now() - waitStart < RECOVERY_WAIT_MS) {
      await new Promise((r) => setTimeout(r, 5_000));
      await Promise.all(pending().map((s) => send(server, s)));
    }
    if (settling)
      console.log(
        `  ${settling} resends waited ${((Date.now() - waitStart) / 1000).toFixed(0)} s for the pending-payments job; ${pending().length} still pending`,
      );
    const stillUnanswered = pending().length;
    const appliedBeforeCrash = unanswered.filter((s) => s.replayed).length;
    const acked = sent.filter((s) => s.status !== undefined && s.status < 300);
    const refused = sent.filter((s) => s.status !== undefined && s.status >= 300);
    const ackedOf = (kind: Sent['op']['kind']) => acked.filter((s) => s.op.kind === kind).length;
    console.log(
      `  restarted; resent ${unanswered.length} with their keys: ${appliedBeforeCrash} had been applied before the crash (replayed), ` +
        `${stillUnanswered} still unanswered`,
    );
    console.log(
      `  acknowledged ${acked.length} (${ackedOf('deposit')} deposits, ${funded} of them the funding, ${ackedOf('give')} gives, ` +
        `${ackedOf('withdrawal')} withdrawals), refused ${refused.length} ` +
        JSON.stringify(countBy(refused.map((s) => `${s.status} ${s.op.kind} ${s.error}`))),
    );
    if (stillUnanswered) ok = fail('requests still unanswered after the restart');

    // Replays: a sample of acknowledged requests of each kind sent again must replay and move nothing.
    const sample = (['deposit', 'give', 'withdrawal'] as const).flatMap((kind) => acked.filter((s) => s.op.kind === kind).slice(-7));
    for (const s of sample) {
      const status = s.status;
      await send(server, s);
      if (s.status !== status || !s.replayed)
        ok = fail(`a resend of ${s.key} answered ${s.status} (replayed: ${s.replayed}), first ${status}`);
    }

    // Balances = the acknowledged movements.
    const expected = expectedBalances(accounts, acked);
    let mismatched = 0;
    for (const a of accounts) {
      const res = await call<{ balance: number }>(server, 'GET', '/api/billing-settings-balance', a.token);
      const cents = Math.round(res.body.balance * 100);
      if (cents !== expected.get(a.id)) {
        mismatched += 1;
        console.log(`    ${a.username}: balance ${cents} cents, acknowledged movements ${expected.get(a.id)} cents`);
      }
    }
    console.log(
      `  balances equal to the acknowledged movements: ${accounts.length - mismatched}/${accounts.length} (replayed ${sample.length} acknowledged requests)`,
    );
    if (mismatched) ok = fail('a balance differs from the acknowledged movements (lost or applied twice)');
    await kill9(server);

    const problems = await withDatabase(env, (db) => checkWithdrawals(db, accounts, acked));
    for (const p of problems.slice(0, 10)) console.log(`    ${p}`);
    if (problems.length) ok = fail(`${problems.length} withdrawal problems`);
  } finally {
    await kill9(server);
  }

  try {
    const problems = await withDatabase(env, async (db) => ledgerProblems(await ledgerInvariants(db)));
    console.log(`  ledger invariants: ${problems.length ? `BROKEN ${problems.join('; ')}` : 'hold'}`);
    if (problems.length) ok = fail('ledger invariants broken');
  } finally {
    await dropDb?.();
  }
  console.log(`  ${ok ? 'OK' : 'FAILED'}`);
  return ok;
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function fail(message: string): false {
  console.log(`  CHECK FAILED: ${message}`);
  return false;
}

async function main(): Promise<void> {
  if (!args.includes('--no-build') || !fs.existsSync(MAIN)) {
    console.log('building the server into .tmp/crash-test');
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json', '--outDir', OUT], { stdio: 'inherit' });
    } catch {
      if (!fs.existsSync(MAIN)) throw new Error('the server did not build');
      console.log('(tsc reported errors; running what it emitted)');
    }
  }
  const common = {
    INVITES_PER_USER: '100',
    API_RATE_LIMIT: '1000000',
    AUTH_RATE_LIMIT: '1000000',
    PAYMENTS: 'sandbox',
    SANDBOX_PAYOUT_DELAY_MS: String(PAYOUT_DELAY_MS),
    // Withdrawals of what was just deposited: the test is about crashes, not holds.
    FUNDS_HOLD_HOURS: '0',
  };
  const results: boolean[] = [];
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-crash-'));
  try {
    results.push(await runOn('sqlite', { ...common, DATA_DIR: sqliteDir, DATABASE_URL: '', REDIS_URL: '' }));
  } finally {
    fs.rmSync(sqliteDir, { recursive: true, force: true });
  }
  if (process.env.DATABASE_URL) {
    const pg = await freshPostgres(process.env.DATABASE_URL, 'giftlink_crash');
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-crash-'));
    try {
      results.push(await runOn('postgres', { ...common, DATA_DIR: pgDir, DATABASE_URL: pg.url }, () => pg.drop()));
    } finally {
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  if (results.some((r) => !r)) process.exitCode = 1;
}

await main();
