/**
 * `npm run crash-test`: does money survive a crash? Starts the compiled server (as e2e/harness.ts
 * does, built into .tmp/crash-test) on SQLite, and on PostgreSQL too when DATABASE_URL is set; sends
 * concurrent deposits and gives, each with its own Idempotency-Key; `kill -9`s the server
 * mid-traffic; restarts it on the same data; resends every request that got no answer, with its
 * key; and checks:
 *
 * - no acknowledged request is lost and nothing is applied twice: every user's balance is the sum
 *   of the acknowledged movements (deposits in, gives out, gives received);
 * - a resend of an acknowledged request replays its answer (Idempotent-Replayed) and moves nothing;
 * - the ledger's invariants hold (money/ledger.ts `ledgerInvariants`).
 *
 * Options: --users N (default 12), --workers N (concurrent requests, default 16), --kill-after MS
 * (default 1500), --no-build (reuse .tmp/crash-test). Exits 1 when a check fails.
 */
import crypto from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { numberArg } from '../bench/args.js';
import { loadConfig } from '../api/src/config.js';
import { openDatabase } from '../api/src/db/index.js';
import { schema } from '../api/src/schema.js';
import { ledgerInvariants, ledgerProblems } from '../api/src/money/ledger.js';
import { freshPostgres } from '../api/src/db/fresh-postgres.js';

const OUT = path.resolve('.tmp/crash-test');
const MAIN = path.join(OUT, 'api/src/main.js');
const args = process.argv.slice(2);
const opt = (name: string, fallback: number, max: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? numberArg(name, args[i + 1], 1, max) : fallback;
};
const USERS = Math.round(opt('--users', 12, 100));
const WORKERS = Math.round(opt('--workers', 16, 200));
const KILL_AFTER_MS = opt('--kill-after', 1500, 60_000);

interface Server {
  url: string;
  child: ChildProcess;
  output: () => string;
}
interface Account {
  id: string;
  token: string;
  username: string;
  linkId: string;
}
type Op = { kind: 'deposit'; user: Account; cents: number } | { kind: 'give'; user: Account; to: Account; cents: number };
interface Sent {
  op: Op;
  key: string;
  /** The answer's status; undefined while none came (the crash took it). */
  status?: number;
  /** Whether the last answer was a replay of a stored one (Idempotent-Replayed). */
  replayed?: boolean;
  /** A refusal's error code. */
  error?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function start(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ENV_FILE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, output: () => out };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer /healthz:\n${out}`);
}

function kill9(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

async function call<T>(server: Server, method: string, url: string, token?: string, body?: unknown, key?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (text ? JSON.parse(text) : null) as T };
}

/** Users through the API: the printed invite, then the first user's invites; each with a receive link. */
async function setUp(server: Server): Promise<Account[]> {
  // Printed once its invite is stored, which may be a moment after the server answers /healthz.
  const printed = () => /\/invite\/([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
  for (let i = 0; i < 100 && !printed(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const code = printed();
  if (!code) throw new Error(`no invite printed:\n${server.output()}`);
  const accounts: Account[] = [];
  let codes = [code];
  for (let i = 0; i < USERS; i++) {
    const username = `crash${i}`;
    const reg = await call<{ token: string; user: { _id: string } }>(server, 'POST', '/api/auth/register', undefined, {
      username,
      email: `${username}@example.com`,
      password: 'secret-pass',
      inviteCode: codes.shift(),
    });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    if (i === 0) {
      const invites = await call<{ code: string; status: string }[]>(server, 'GET', `/invites/${reg.body.user._id}`, reg.body.token);
      codes = invites.body.filter((inv) => inv.status === 'available').map((inv) => inv.code);
    }
    const link = await call<{ _id?: string; link?: { _id: string } }>(server, 'POST', '/links/create', reg.body.token, {
      details: { giveorreceive: 'receive', type: 'currency', amount: 50_000, initialQuantity: 1 },
    });
    const linkId = link.body._id ?? link.body.link?._id;
    if (link.status >= 300 || !linkId) throw new Error(`link for ${username}: ${link.status} ${JSON.stringify(link.body)}`);
    accounts.push({ id: reg.body.user._id, token: reg.body.token, username, linkId });
  }
  return accounts;
}

function send(server: Server, s: Sent): Promise<void> {
  const { op } = s;
  const request =
    op.kind === 'deposit'
      ? call(server, 'POST', '/api/billing-settings-deposit', op.user.token, { userId: op.user.id, balance: op.cents / 100 }, s.key)
      : call(server, 'POST', '/statuses/api/gives', op.user.token, { postId: op.to.linkId, amount: op.cents / 100 }, s.key);
  return request.then(
    (res) => {
      s.status = res.status;
      s.replayed = res.replayed !== null;
      s.error = res.status >= 300 ? String((res.body as { error?: unknown } | null)?.error) : undefined;
    },
    () => undefined, // no answer: the connection died with the server
  );
}

/** Concurrent traffic until the server is killed: WORKERS loops of random deposits and gives. */
async function traffic(server: Server, accounts: Account[], sent: Sent[]): Promise<void> {
  const state = { killed: false };
  const pick = () => accounts[crypto.randomInt(accounts.length)];
  const worker = async () => {
    while (!state.killed) {
      const user = pick();
      let to = pick();
      while (to === user) to = pick();
      const cents = 100 * (1 + crypto.randomInt(5));
      const op: Op = crypto.randomInt(3) === 0 ? { kind: 'give', user, to, cents } : { kind: 'deposit', user, cents };
      const s: Sent = { op, key: crypto.randomUUID() };
      sent.push(s);
      await send(server, s);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  state.killed = true; // no new requests: the ones in flight now are the ones the crash takes
  await kill9(server);
  await Promise.all(workers);
}

async function runOn(label: string, env: Record<string, string>, dropDb?: () => Promise<void>): Promise<boolean> {
  console.log(`\n[${label}]`);
  let server = await start(env);
  let ok = true;
  try {
    const accounts = await setUp(server);
    const sent: Sent[] = [];
    await traffic(server, accounts, sent);
    const unanswered = sent.filter((s) => s.status === undefined);
    const before = { sent: sent.length, answered: sent.length - unanswered.length };
    console.log(
      `  killed -9 after ${KILL_AFTER_MS} ms: ${before.sent} requests sent, ${before.answered} answered, ${unanswered.length} unanswered`,
    );

    server = await start(env);
    for (const s of unanswered) await send(server, s);
    // A deposit whose first step committed before the crash is settled by the payments.resolve job
    // (every minute): its resend answers 409 idempotency_key_in_progress until then. Ask again.
    const pending = () => unanswered.filter((s) => s.status === undefined || s.error === 'idempotency_key_in_progress');
    const settling = pending().length;
    for (let i = 0; i < 30 && pending().length; i++) {
      await new Promise((r) => setTimeout(r, 5_000));
      for (const s of pending()) await send(server, s);
    }
    if (settling) console.log(`  ${settling} resends waited for the pending-payments job; ${pending().length} still pending`);
    const stillUnanswered = pending().length;
    const appliedBeforeCrash = unanswered.filter((s) => s.replayed).length;
    const acked = sent.filter((s) => s.status !== undefined && s.status < 300);
    const refused = sent.filter((s) => s.status !== undefined && s.status >= 300);
    console.log(
      `  restarted; resent ${unanswered.length} with their keys: ${appliedBeforeCrash} had been applied before the crash (replayed), ` +
        `${stillUnanswered} still unanswered`,
    );
    console.log(
      `  acknowledged ${acked.length} (${acked.filter((s) => s.op.kind === 'deposit').length} deposits, ` +
        `${acked.filter((s) => s.op.kind === 'give').length} gives), refused ${refused.length} ${JSON.stringify(countBy(refused.map((s) => `${s.status} ${s.op.kind} ${s.error}`)))}`,
    );
    if (stillUnanswered) ok = fail('requests still unanswered after the restart');

    // Replays: a sample of acknowledged requests sent again must replay and move nothing.
    const sample = acked.slice(0, 20);
    for (const s of sample) {
      const status = s.status;
      await send(server, s);
      if (s.status !== status || !s.replayed)
        ok = fail(`a resend of ${s.key} answered ${s.status} (replayed: ${s.replayed}), first ${status}`);
    }

    // Balances = the acknowledged movements.
    const expected = new Map(accounts.map((a) => [a.id, 0]));
    for (const { op } of acked) {
      expected.set(op.user.id, expected.get(op.user.id)! + (op.kind === 'deposit' ? op.cents : -op.cents));
      if (op.kind === 'give') expected.set(op.to.id, expected.get(op.to.id)! + op.cents);
    }
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
  } finally {
    await kill9(server);
  }

  const db = await openDatabase(loadConfig({ ...process.env, ...env }), schema);
  try {
    const problems = ledgerProblems(await ledgerInvariants(db));
    console.log(`  ledger invariants: ${problems.length ? `BROKEN ${problems.join('; ')}` : 'hold'}`);
    if (problems.length) ok = fail('ledger invariants broken');
  } finally {
    await db.close();
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
  const common = { INVITES_PER_USER: '100', API_RATE_LIMIT: '1000000', AUTH_RATE_LIMIT: '1000000', PAYMENTS: 'sandbox' };
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
