/**
 * `npx tsx bench/metrics-cost.ts` (`-- --rounds N`): what keeping the metrics (METRICS_PORT) costs.
 *
 * - The code they add, alone, a million times: the request middleware around an empty `next`, and
 *   a transaction's observations (its tally, its time, a COMMIT and a flush) around an empty work.
 * - Two servers in this process on SQLite, one with metrics and one without, loaded in alternating
 *   rounds (so a busy machine's drift falls on both): the server's CPU per `/healthz` over HTTP
 *   (autocannon in a child process, bench/load.ts), and per ledger transaction run in the process.
 *   Medians of the rounds.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countOnCommit, tallied } from '../api/src/db/observer.js';
import { Metrics } from '../api/src/metrics/metrics.js';
import { SYSTEM_PAYMENTS, transfer, userAccount } from '../api/src/money/ledger.js';
import { buildUsers, startTestServer, type TestServer } from '../api/src/testing/server.js';
import { numberArg } from './args.js';
import type { LoadPhase, LoadResult, LoadSpec } from './load.js';

const LOOPS = 1_000_000;
const TRANSACTIONS = 4_000;
const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));

const cpuUs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return d.user + d.system;
};

/** CPU µs per call of `step`, run LOOPS times one after the other. */
async function perCall(step: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < LOOPS; i++) await step(i);
  return cpuUs(start) / LOOPS;
}

async function codeAlone(): Promise<void> {
  const metrics = new Metrics();
  const middleware = metrics.middleware();
  const next = () => Promise.resolve();
  const routes = ['/links/all', '/statuses/api/gives', '/messages/:conversationId', '/api/auth/me'];
  const contexts = routes.map((route, i) => ({ method: i % 2 ? 'POST' : 'GET', path: '/x', status: 200, _matchedRoute: route }));
  const bare = async (_ctx: unknown, n: () => Promise<void>) => {
    try {
      await n();
    } finally {
      // nothing
    }
  };
  const work = async (i: number) => i;
  const counted = async (i: number) => {
    countOnCommit('deposit');
    return i;
  };
  const observed = async (i: number) => {
    const started = performance.now();
    const run = tallied(counted);
    await run.work(i);
    metrics.transaction((performance.now() - started) / 1000, true);
    metrics.counted(run.tally().names);
    metrics.commit(0.0001, 4);
    metrics.flush(0.001);
  };
  const requestBare = await perCall((i) => bare(contexts[i & 3], next));
  const requestMetrics = await perCall((i) => middleware(contexts[i & 3] as never, next));
  const transactionBare = await perCall(work);
  const transactionMetrics = await perCall(observed);
  console.log(`the middleware: +${(requestMetrics - requestBare).toFixed(2)} µs of CPU a request`);
  console.log(`a transaction's observations: +${(transactionMetrics - transactionBare).toFixed(2)} µs of CPU a transaction`);
}

/** The server's CPU µs per request of `/healthz` under autocannon (32 connections, 3 s). */
function healthz(server: TestServer): Promise<number> {
  const file = path.join(os.tmpdir(), `giftlink-metrics-cost-${process.pid}.json`);
  const spec: LoadSpec = { url: server.url, duration: 3, warmup: 0.5, connections: 32, kind: 'get', path: '/healthz' };
  fs.writeFileSync(file, JSON.stringify(spec));
  return new Promise((resolve, reject) => {
    let start: NodeJS.CpuUsage | undefined;
    const child = fork(loadScript, [file], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: LoadResult | LoadPhase) => {
      if ('phase' in m) start = process.cpuUsage();
      else if (start && m.requestsTotal) resolve(cpuUs(start) / m.requestsTotal);
      else reject(new Error('the load generator answered nothing'));
    });
    child.on('error', reject);
  });
}

/** The CPU µs per ledger transaction (a deposit), 32 asked for at a time. */
async function transactions(server: TestServer, userId: string): Promise<number> {
  const start = process.cpuUsage();
  const deposit = () =>
    server.deps.db.transaction((em) => transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(userId), amountCents: 1, kind: 'deposit' }), {
      replayable: true,
    });
  for (let i = 0; i < TRANSACTIONS; i += 32) await Promise.all(Array.from({ length: 32 }, deposit));
  return cpuUs(start) / TRANSACTIONS;
}

async function alternating(rounds: number): Promise<void> {
  delete process.env.DATABASE_URL;
  const servers = { off: await startTestServer(), on: await startTestServer({ METRICS_PORT: '0' }) };
  const sides = ['off', 'on'] as const;
  const users = { off: (await buildUsers(servers.off, 1, 'costoff'))[0], on: (await buildUsers(servers.on, 1, 'coston'))[0] };
  const measured = { off: { healthz: [] as number[], tx: [] as number[] }, on: { healthz: [] as number[], tx: [] as number[] } };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 ? [...sides].reverse() : sides) {
        measured[side].healthz.push(await healthz(servers[side]));
        measured[side].tx.push(await transactions(servers[side], users[side].user._id));
      }
      // A scrape now and then, as Prometheus would.
      await fetch(servers.on.metricsUrl!).then((res) => res.text());
    }
  } finally {
    await Promise.all([servers.off.close(), servers.on.close()]);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const key of ['healthz', 'tx'] as const) {
    const off = median(measured.off[key]);
    const on = median(measured.on[key]);
    const what = key === 'healthz' ? 'GET /healthz' : 'a ledger transaction';
    console.log(
      `${what}: ${off.toFixed(1)} µs without metrics, ${on.toFixed(1)} µs with (×${(on / off).toFixed(3)}), medians of ${rounds}`,
    );
  }
}

const flag = process.argv.indexOf('--rounds');
const rounds = flag === -1 ? 10 : Math.round(numberArg('--rounds', process.argv[flag + 1], 2, 100));
await codeAlone();
await alternating(rounds);
process.exit(0);
