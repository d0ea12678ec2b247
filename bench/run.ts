/**
 * `npm run bench`: starts the real server (startTestServer: own data dir, own throwaway
 * PostgreSQL database) on SQLite and on PostgreSQL, seeds it, and measures with autocannon:
 *
 * - GET /healthz            the ceiling: the whole middleware stack plus a `SELECT 1`
 * - GET /favicon.svg        a no-database route (a static file of the built site), when built
 * - GET /links/all?page=1   the feed's first page (25 cards) over 10,000 open links
 * - POST /statuses/api/gives concurrent gives, each a distinct (giver, receive link) pair
 * - POST /api/billing-settings-withdrawal withdrawals of users whose sandbox payouts are ready
 * - POST /analytics/log-event analytics events accepted per second (then checks all were stored)
 * - GET /links/{u}/image    share images: a cold render per request (story and card), and a cached one
 * - GET /conversations/{id} the inbox of a user with 200 conversations: its first page of 25 (last
 *   message, unread count each) and its second, by the first page's cursor
 *
 * The load generator runs in a child process (bench/load.ts) so it does not share the server's
 * event loop; on a small machine they still share the CPUs, and so does PostgreSQL. Beside
 * requests/s, each row gives the server's CPU time per answered request (user + system of this
 * process, which runs the server, over the measured run): steadier than requests/s when the
 * machine is noisy, and PostgreSQL's own work is not in it.
 *
 * Options: --only sqlite|postgres, --duration N (seconds, default 6), --connections N
 * (default 32), --warmup N (seconds, default 1), --scenario a,b (only scenarios whose name contains
 * one of them, e.g. `--scenario links/all,gives`; the ceiling always runs), --metrics (the server keeps its
 * Prometheus metrics, METRICS_PORT, to measure their cost), --analyze (ANALYZE SQLite after seeding too;
 * PostgreSQL is always analysed, as autovacuum would be). PostgreSQL: DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test. Results also go to test-results/bench.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsEventEntity } from '../api/src/analytics/entity.js';
import { ledgerInvariants, ledgerProblems } from '../api/src/money/ledger.js';
import { startTestServer, type TestServer, type TestUser } from '../api/src/testing/server.js';
import { buildManyUsers, seedFeedLinks, seedGivers, settledGiveCount } from './seed.js';
import type { LoadResult, LoadSpec } from './load.js';
import { forkLoad } from './fork-load.js';
import { parseArgs, printGoals, printTable, type DbName, type Options, type Row } from './report.js';
import { shareImageScenarios } from './images.js';
import { INBOX_CONVERSATIONS, seedInbox } from './inbox.js';
import { INBOX_CURSOR_HEADER, INBOX_PAGE_SIZE } from '../api/contract/limits.js';
import { cpuSince, cpuSnapshot, type CpuSnapshot } from './cpu.js';
import { measureGiveCeiling } from './ceiling.js';
import { WITHDRAWAL_SCENARIO, checkWithdrawals, printWithdrawalCost, seedWithdrawers, withdrawalSpec } from './withdrawals.js';

const FEED_LINKS = 10_000;
/** Givers and receive links for the give scenario: coprime, so pair k = (k mod G, k mod R) covers G×R. */
const GIVERS = 401;
const RECEIVE_LINKS = 100;
const GIVE_DOLLARS = 1;
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Runs bench/load.ts in a child process. The server runs in this process: its CPU time over the
 * measured run, per answered request, is the cost of one request, which the scheduling of a busy
 * machine does not change much. PostgreSQL's and the whole machine's too, where /proc tells them
 * (bench/cpu.ts).
 */
function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let measuring: { server: NodeJS.CpuUsage; others?: CpuSnapshot; at: number } | undefined;
  return forkLoad(spec, {
    measuring: () => (measuring = { server: process.cpuUsage(), others: cpuSnapshot(), at: performance.now() }),
    measured: (m) => {
      const server = process.cpuUsage(measuring!.server);
      const others = cpuSince(measuring!.others);
      const perRequest = (us: number | undefined) => (us === undefined ? undefined : us / m.requestsTotal);
      return {
        serverCpuUs: perRequest(server.user + server.system),
        postgresCpuUs: perRequest(others?.postgresUs),
        machineCpuUs: perRequest(others?.machineUs),
        busyCpus: others && others.machineUs / ((performance.now() - measuring!.at) * 1000),
      };
    },
  });
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const value = await work();
  console.log(`  ${label} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return value;
}

interface Seeded {
  receiveLinkIds: string[];
  givers: TestUser[];
  spareGiver: TestUser;
  inboxUser: TestUser;
  /** Users with money and sandbox payouts ready, for withdrawals. */
  withdrawers: TestUser[];
  /** The cursor of the inbox's second page, from the sanity check. */
  inboxCursor?: string;
}

/**
 * 10,000 open receive links (one per creator: a user holds one active link), inserted directly in
 * batches; 401 givers with $1,000 each moved from system:payments through the ledger.
 */
async function seed(server: TestServer, analyze: boolean): Promise<Seeded> {
  const { db } = server.deps;
  const links = await timed(`${FEED_LINKS} links and their creators`, () => seedFeedLinks(server, FEED_LINKS));
  const givers = await timed(`${GIVERS + 1} givers with $1,000 each`, () => seedGivers(server, GIVERS + 1, 100_000));
  // What happens within a minute of a bulk load: autovacuum on PostgreSQL, the server's own
  // `db.optimize()` on its sweep timer for SQLite. --analyze runs a full ANALYZE on SQLite instead.
  const inboxUser = await timed(`an inbox of ${INBOX_CONVERSATIONS} conversations`, () => seedInbox(server, buildManyUsers));
  const withdrawers = await timed('users with $1,000 each and sandbox payouts ready', () => seedWithdrawers(server));
  if (db.isPostgres || analyze) await timed('ANALYZE', () => db.source.query('ANALYZE'));
  else await timed('PRAGMA optimize', () => db.optimize());
  const step = Math.floor(FEED_LINKS / RECEIVE_LINKS);
  return {
    receiveLinkIds: Array.from({ length: RECEIVE_LINKS }, (_, i) => links[i * step].id),
    givers: givers.slice(0, GIVERS),
    spareGiver: givers[GIVERS],
    inboxUser,
    withdrawers,
  };
}

/** One request of each kind before the load, so a broken scenario fails loudly instead of measuring errors. */
async function sanityCheck(server: TestServer, seeded: Seeded, staticPath: string | undefined): Promise<void> {
  const health = await server.request('GET', '/healthz');
  if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
  if (staticPath) {
    const res = await server.request('GET', staticPath);
    if (res.status !== 200) throw new Error(`${staticPath} answered ${res.status}`);
  }
  const feed = await server.request<unknown[]>('GET', '/links/all?page=1');
  if (feed.status !== 200 || !Array.isArray(feed.body) || feed.body.length !== 25)
    throw new Error(`feed answered ${feed.status} with ${Array.isArray(feed.body) ? feed.body.length : 'no'} cards`);
  const inbox = await server.request<{ unreadCount: number }[]>('GET', `/conversations/${seeded.inboxUser.user._id}`, {
    token: seeded.inboxUser.token,
  });
  if (inbox.status !== 200 || inbox.body.length !== INBOX_PAGE_SIZE || inbox.body.some((c) => c.unreadCount !== 2))
    throw new Error(`the inbox answered ${inbox.status} with ${Array.isArray(inbox.body) ? inbox.body.length : 'no'} conversations`);
  seeded.inboxCursor = inbox.headers.get(INBOX_CURSOR_HEADER) ?? undefined;
  if (!seeded.inboxCursor) throw new Error('the inbox answered no cursor for its next page');
  const give = await server.request('POST', '/statuses/api/gives', {
    token: seeded.spareGiver.token,
    body: { postId: seeded.receiveLinkIds[0], amount: GIVE_DOLLARS },
  });
  if (give.status !== 201) throw new Error(`a give answered ${give.status} ${JSON.stringify(give.body)}`);
  const withdrawal = await server.request('POST', '/api/billing-settings-withdrawal', {
    token: seeded.withdrawers[0].token,
    body: { balance: 1 },
    headers: { 'Idempotency-Key': 'bench-sanity' },
  });
  if (withdrawal.status !== 200) throw new Error(`a withdrawal answered ${withdrawal.status} ${JSON.stringify(withdrawal.body)}`);
}

/** Stored analytics events once the ingestion buffer has been written: unchanged for 300 ms. */
async function settledEventCount(server: TestServer): Promise<number> {
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 100 && stable < 3; i++) {
    const n = await server.deps.db.manager.countBy(AnalyticsEventEntity, { eventType: 'linkShare' });
    stable = n === last ? stable + 1 : 0;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

async function benchDatabase(database: DbName, opts: Options, pgUrl: string): Promise<Row[]> {
  if (database === 'postgres') process.env.DATABASE_URL = pgUrl;
  else delete process.env.DATABASE_URL;
  console.log(`\n[${database}] starting the server and seeding`);
  const server = await startTestServer({ LOG_LEVEL: 'silent', AUTH_RATE_LIMIT: '1000000', ...(opts.metrics ? { METRICS_PORT: '0' } : {}) });
  try {
    const seeded = await seed(server, opts.analyze);
    const staticPath = fs.existsSync(path.join(server.deps.config.webDir, 'favicon.svg')) ? '/favicon.svg' : undefined;
    if (!staticPath) console.log('  (dist/web not built: no static no-DB route; run `npm run build:web` to include it)');
    await sanityCheck(server, seeded, staticPath);

    const base = { url: server.url, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
    const inboxHeaders = { 'x-auth-token': seeded.inboxUser.token };
    const scenarios: { scenario: string; spec: LoadSpec }[] = [
      { scenario: 'GET /healthz (SELECT 1, ceiling)', spec: { ...base, kind: 'get', path: '/healthz' } },
      ...(staticPath ? [{ scenario: `GET ${staticPath} (static, no DB)`, spec: { ...base, kind: 'get' as const, path: staticPath } }] : []),
      { scenario: 'GET /links/all?page=1 (10k links)', spec: { ...base, kind: 'get', path: '/links/all?page=1' } },
      {
        scenario: `GET /conversations/{id} (inbox page 1, ${INBOX_CONVERSATIONS} conversations)`,
        spec: { ...base, kind: 'get', path: `/conversations/${seeded.inboxUser.user._id}`, headers: inboxHeaders },
      },
      {
        scenario: `GET /conversations/{id}?cursor= (inbox page 2, ${INBOX_CONVERSATIONS} conversations)`,
        spec: {
          ...base,
          kind: 'get',
          path: `/conversations/${seeded.inboxUser.user._id}?cursor=${seeded.inboxCursor}`,
          headers: inboxHeaders,
        },
      },
      {
        scenario: 'POST /statuses/api/gives',
        spec: {
          ...base,
          kind: 'gives',
          path: '/statuses/api/gives',
          gives: { tokens: seeded.givers.map((g) => g.token), linkIds: seeded.receiveLinkIds, amount: GIVE_DOLLARS },
        },
      },
      { scenario: WITHDRAWAL_SCENARIO, spec: withdrawalSpec(base, seeded.withdrawers) },
      // Analytics ingestion: events accepted (204) per second, and all of them written afterwards.
      { scenario: 'POST /analytics/log-event (events accepted)', spec: { ...base, kind: 'events', path: '/analytics/log-event' } },
      // Share images: rendering (satori + sharp) per request, then the same image from the LRU.
      ...(await shareImageScenarios(server, base)),
    ];

    const chosen = scenarios.filter((s, i) => i === 0 || !opts.scenarios || opts.scenarios.some((part) => s.scenario.includes(part)));
    const rows: Row[] = [];
    for (const { scenario, spec } of chosen) {
      const commits = server.deps.db.commits;
      const result = await timed(scenario, () => runLoad(spec));
      rows.push({ database, scenario, ...result, ratioToCeiling: null });
      if (spec.kind === 'gives') {
        // Every give answered 201 must be recorded, and the ledger must still hold. autocannon does
        // not count answers still in flight when a run ends (the server completes them), so up to
        // one request per connection per run (warm-up and measured) may be recorded but uncounted.
        const recorded = await settledGiveCount(server.deps.db);
        const counted = result.ok2xxIncludingWarmup + 1; // + the sanity check's give
        const slack = spec.connections * (spec.warmup > 0 ? 2 : 1);
        const ledger = ledgerProblems(await ledgerInvariants(server.deps.db)).join('; ');
        const ledgerOk = ledger === '';
        const ok = recorded >= counted && recorded <= counted + slack && ledgerOk;
        console.log(
          `    gives recorded ${recorded}, 201s counted ${counted} (+ up to ${slack} in flight), ` +
            `ledger invariants ${ledgerOk ? 'hold' : `BROKEN ${ledger}`}${ok ? '' : '  <-- CHECK FAILED'}`,
        );
        rows[rows.length - 1].check = { recorded, counted, inFlightSlack: slack, ledgerOk, ok };
        // SQLite: how many gives each COMMIT carried (warm-up and run), for the ceiling line.
        const committed = commits === undefined ? undefined : server.deps.db.commits! - commits;
        if (committed) rows[rows.length - 1].givesPerCommit = result.ok2xxIncludingWarmup / committed;
        const ceiling = await timed('the give command alone, no HTTP (bench/ceiling.ts)', () =>
          measureGiveCeiling(database, server, seeded.givers, seeded.receiveLinkIds, GIVE_DOLLARS * 100, rows[0], spec.connections).catch(
            (err: unknown) => `it failed: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
        rows[rows.length - 1].giveCeiling = ceiling;
      }
      // + the sanity check's withdrawal
      if (spec.kind === 'withdrawals') rows[rows.length - 1].check = await checkWithdrawals(server, result, spec, 1);
      if (spec.kind === 'events') {
        const stored = await settledEventCount(server);
        const accepted = result.ok2xxIncludingWarmup;
        const ok = stored >= accepted && stored <= accepted + spec.connections * 2;
        console.log(`    events accepted ${accepted}, stored ${stored}${ok ? '' : '  <-- CHECK FAILED'}`);
        rows[rows.length - 1].check = { recorded: stored, counted: accepted, inFlightSlack: spec.connections * 2, ledgerOk: true, ok };
      }
    }
    const ceiling = rows[0].requestsPerSecond;
    for (const row of rows) row.ratioToCeiling = ceiling > 0 ? row.requestsPerSecond / ceiling : null;
    return rows;
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const pgUrl = process.env.DATABASE_URL || DEFAULT_PG;
  const databases: DbName[] = opts.only ? [opts.only] : ['sqlite', 'postgres'];
  console.log(
    `giftlink bench: ${databases.join(' + ')}, ${opts.duration} s per scenario (+${opts.warmup} s warm-up), ` +
      `${opts.connections} connections${opts.analyze ? ', SQLite analysed' : ''}, node ${process.version}, ${os.cpus().length} CPUs`,
  );
  const started = new Date();
  const load = os.loadavg()[0];
  if (load > os.cpus().length / 2)
    console.log(`note: the machine is busy (load average ${load.toFixed(1)} on ${os.cpus().length} CPUs): numbers will be noisy`);
  const rows: Row[] = [];
  const failures: { database: DbName; error: string }[] = [];
  for (const database of databases) {
    try {
      rows.push(...(await benchDatabase(database, opts, pgUrl)));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      console.error(`[${database}] failed: ${error}`);
      failures.push({ database, error });
    }
  }
  printTable(rows);
  printGoals(rows);
  printWithdrawalCost(rows);

  const out = path.resolve('test-results/bench.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        loadAverageAtStart: load,
        options: opts,
        postgres: databases.includes('postgres') ? pgUrl.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@') : undefined,
        seed: { feedLinks: FEED_LINKS, givers: GIVERS, receiveLinks: RECEIVE_LINKS, giveDollars: GIVE_DOLLARS },
        results: rows,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${path.relative(process.cwd(), out)} in ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s`);
  if (failures.length || rows.some((r) => r.check && !r.check.ok)) process.exitCode = 1;
}

await main();
