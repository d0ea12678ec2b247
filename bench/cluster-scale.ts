/**
 * `npm run bench:cluster`: how far it scales. Gives, feed pages and chat with 1, 2 and 3 API nodes
 * behind nginx (scripts/cluster/), all on this machine's PostgreSQL (a fresh database, dropped at
 * the end) and Redis (a key prefix of its own, removed at the end), and the same against one node
 * directly, without nginx: the ceiling nginx's own overhead is measured from.
 *
 * - gives: POST /statuses/api/gives, each a distinct (giver, receive link) pair (bench/load.ts)
 * - feed:  GET /links/all?page=1 over 10,000 open links
 * - chat:  socket.io `sendMessage` between pairs of users, each sender waiting for its ack, with
 *          --window messages in flight (bench/realtime/clients.ts); clients connect from 64
 *          loopback addresses, since nginx sends a client's sockets to one node by its address
 *
 * For each run: requests (chat: messages) a second, p50/p99 latency, and the CPU time per request
 * of each process group, from /proc (bench/cluster/groups.ts): what a request costs the API nodes,
 * nginx, PostgreSQL, Redis and the load generator, which says what more cores or machines would
 * give even where this one has too few to show it. Each cluster is warmed up first (every node
 * compiles its own hot code), then watched idle for 3 s: what each group spends idle is taken off
 * its figures, which would otherwise grow with the node count as throughput falls.
 *
 * Options: --duration N (seconds per measured run, default 6), --warmup N (default 1),
 * --nodes 1,2,3, --connections N (autocannon's, default 32), --pairs N (chat pairs, default 200),
 * --window N (chat messages in flight, default 64), --rate N (chat's fixed-rate phase, default
 * 100/s), --no-build. PostgreSQL: DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/test);
 * Redis: REDIS_URL (default redis://127.0.0.1:6379). Results also go to test-results/bench-cluster.json.
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { loadConfig } from '../api/src/config.js';
import { ledgerInvariants, ledgerProblems } from '../api/src/money/ledger.js';
import { freshPostgres } from '../api/src/db/fresh-postgres.js';
import { openDatabase, type Database } from '../api/src/db/index.js';
import { schema } from '../api/src/schema.js';
import { startTestServer, type TestUser } from '../api/src/testing/server.js';
import { Cluster } from '../scripts/cluster/cluster.js';
import { numberArg } from './args.js';
import { processStats } from './cpu.js';
import type { LoadSpec } from './load.js';
import { forkLoad } from './fork-load.js';
import { seedChatPairs, seedFeedLinks, seedGivers, settledGiveCount, type ChatPairs } from './seed.js';
import { measureChat, measureHttp, type Measured, type Target } from './cluster/measure.js';
import { snapshot, spent } from './cluster/groups.js';
import { capacities, capacityLines, tableLines } from './cluster/report.js';

const FEED_LINKS = 10_000;
/** Givers and receive links of one run of gives: coprime, so pair k = (k mod G, k mod R) covers G×R. */
const GIVERS = 401;
const RECEIVE_LINKS = 100;
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';
/** How long the idle processes are watched after each cluster starts. */
const IDLE_MS = 3_000;

interface Options {
  duration: number;
  warmup: number;
  nodes: number[];
  connections: number;
  pairs: number;
  window: number;
  rate: number;
  build: boolean;
}

function parseOptions(argv: string[]): Options {
  const opts: Options = { duration: 6, warmup: 1, nodes: [1, 2, 3], connections: 32, pairs: 200, window: 64, rate: 100, build: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--duration') opts.duration = numberArg('--duration', value(), 1, 120);
    else if (flag === '--warmup') opts.warmup = numberArg('--warmup', value(), 0, 30);
    else if (flag === '--nodes')
      opts.nodes = value()
        .split(',')
        .map((n) => Math.round(numberArg('--nodes', n, 1, 8)));
    else if (flag === '--connections') opts.connections = Math.round(numberArg('--connections', value(), 1, 1000));
    else if (flag === '--pairs') opts.pairs = Math.round(numberArg('--pairs', value(), 1, 2000));
    else if (flag === '--window') opts.window = Math.round(numberArg('--window', value(), 1, 10_000));
    else if (flag === '--rate') opts.rate = numberArg('--rate', value(), 1, 100_000);
    else if (flag === '--no-build') opts.build = false;
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'npm run bench:cluster -- [--duration N] [--warmup N] [--nodes 1,2,3] [--connections N] [--pairs N] [--window N] [--rate N] [--no-build]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (try --help)`);
  }
  return opts;
}

interface Seeded {
  links: string[];
  givers: TestUser[];
  spareGiver: TestUser;
  chat: ChatPairs;
}

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/** Seeds through a server of our own in this process (it runs the migrations), then closes it. */
async function seed(databaseUrl: string, jwtSecret: string, pairs: number): Promise<Seeded> {
  const server = await startTestServer({ DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret, REDIS_URL: '' });
  try {
    const links = await seedFeedLinks(server, FEED_LINKS);
    const givers = await seedGivers(server, GIVERS + 1, 100_000);
    const chat = await seedChatPairs(server.deps, pairs, 'chat');
    await server.deps.db.source.query('ANALYZE');
    return { links: links.map((l) => l.id), givers: givers.slice(0, GIVERS), spareGiver: givers[GIVERS], chat };
  } finally {
    await server.close();
  }
}

/** Run `run`'s receive links: RECEIVE_LINKS spread over the feed, none shared with another run. */
function runLinks(seeded: Seeded, run: number): string[] {
  const step = Math.floor(seeded.links.length / RECEIVE_LINKS);
  if (run >= step) throw new Error('more runs of gives than sets of receive links');
  return Array.from({ length: RECEIVE_LINKS }, (_, i) => seeded.links[i * step + run]);
}

async function expectOk(url: string, init: RequestInit, status: number, what: string): Promise<void> {
  const res = await fetch(url, init);
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

/** The three scenarios against one target; gives are checked against what the database recorded. */
async function measureTarget(target: Target, seeded: Seeded, run: number, db: Database, opts: Options): Promise<Measured[]> {
  const links = runLinks(seeded, run);
  const headers = { 'content-type': 'application/json', 'x-auth-token': seeded.spareGiver.token };
  await expectOk(`${target.url}/links/all?page=1`, {}, 200, 'the feed');
  await expectOk(
    `${target.url}/statuses/api/gives`,
    { method: 'POST', headers, body: JSON.stringify({ postId: links[0], amount: 1 }) },
    201,
    'a give',
  );
  const base = { url: target.url, duration: opts.duration, warmup: opts.warmup, connections: opts.connections };
  const rows: Measured[] = [];
  const label = `${target.via === 'direct' ? 'one node directly' : `nginx + ${target.nodes}`}`;

  const before = await settledGiveCount(db);
  const tokens = seeded.givers.map((g) => g.token);
  const gives: LoadSpec = { ...base, kind: 'gives', path: '/statuses/api/gives', gives: { tokens, linkIds: links, amount: 1 } };
  const give = await measureHttp('gives', target, gives);
  const recorded = (await settledGiveCount(db)) - before;
  const counted = give.load!.ok2xxIncludingWarmup;
  const slack = opts.connections * (opts.warmup > 0 ? 2 : 1);
  const ledger = ledgerProblems(await ledgerInvariants(db)).join('; ');
  if (recorded < counted || recorded > counted + slack)
    give.problem = `gives recorded ${recorded}, 201s counted ${counted} (+ up to ${slack})`;
  if (ledger) give.problem = `${give.problem ?? ''} ledger invariants broken: ${ledger}`;
  rows.push(give);
  console.log(
    `  [${elapsed()}] ${label}: gives ${Math.round(give.perSecond)}/s, recorded ${recorded} of ${counted} answered${give.problem ? `  <-- ${give.problem}` : ''}`,
  );

  const feed = await measureHttp('feed', target, { ...base, kind: 'get', path: '/links/all?page=1' });
  rows.push(feed);
  console.log(`  [${elapsed()}] ${label}: feed ${Math.round(feed.perSecond)}/s`);

  const chat = await measureChat(target, { pairs: seeded.chat, rate: opts.rate, seconds: opts.duration, window: opts.window });
  rows.push(chat);
  console.log(`  [${elapsed()}] ${label}: chat ${chat.perSecond} messages/s, ${chat.failures} failed or lost`);
  return rows;
}

/**
 * Each node's first thousands of requests also compile (V8's optimising compiler runs on the
 * node's own threads) and grow its heaps: gives and feed pages straight to each node for twice
 * --warmup, and a short round of chat through nginx, before any run is measured. Answers the
 * next unused set of receive links.
 */
async function warmUp(nodeUrls: string[], target: Target, seeded: Seeded, run: number, opts: Options): Promise<number> {
  const tokens = seeded.givers.map((g) => g.token);
  const hooks = { measuring: () => undefined, measured: () => ({}) };
  for (const url of nodeUrls) {
    const base = { url, duration: 2 * opts.warmup, warmup: 0, connections: opts.connections };
    const gives: LoadSpec = {
      ...base,
      kind: 'gives',
      path: '/statuses/api/gives',
      gives: { tokens, linkIds: runLinks(seeded, run++), amount: 1 },
    };
    await forkLoad(gives, hooks);
    await forkLoad({ ...base, kind: 'get', path: '/links/all?page=1' }, hooks);
  }
  await measureChat(target, { pairs: seeded.chat, rate: opts.rate, seconds: Math.max(1, opts.warmup), window: opts.window });
  return run;
}

/** The postmaster: the parent of the backend serving our connection. */
async function postmasterOf(db: Database): Promise<number> {
  const [{ pid }] = (await db.source.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
  const backend = processStats().find((p) => p.pid === Number(pid));
  if (!backend) throw new Error('PostgreSQL is not on this machine (its backend is not in /proc)');
  return backend.ppid;
}

async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await client.del(keys);
  await client.close();
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const pgBase = process.env.DATABASE_URL || DEFAULT_PG;
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS;
  // The seeding server takes our database, not one of its own; the nodes get theirs from Cluster.
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  const startedAt = new Date();
  const load = os.loadavg()[0];
  console.log(
    `bench:cluster — ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${load.toFixed(1)}, node ${process.version}; ` +
      `nodes ${opts.nodes.join(',')}, ${opts.duration} s a run (+${opts.warmup} s warm-up), ${opts.connections} connections, ` +
      `chat ${opts.pairs} pairs, ${opts.window} in flight`,
  );
  if (opts.build) execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
  const database = await freshPostgres(pgBase, 'giftlink_scale');
  const databaseName = new URL(database.url).pathname.slice(1);
  const redisPrefix = `giftlink_scale_${crypto.randomBytes(4).toString('hex')}`;
  const jwtSecret = crypto.randomBytes(32).toString('hex');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-scale-'));
  let db: Database | undefined;
  const rows: Measured[] = [];
  const idleCpu: { nodes: number; usPerSecond: Target['idle'] }[] = [];
  try {
    const seeded = await seed(database.url, jwtSecret, opts.pairs);
    console.log(`  [${elapsed()}] seeded ${FEED_LINKS} links, ${GIVERS} givers, ${opts.pairs} chat pairs in ${databaseName}`);
    db = await openDatabase(loadConfig({ DATABASE_URL: database.url, DATA_DIR: path.join(tmp, 'checks') }), schema);
    const postmaster = await postmasterOf(db);
    let run = 0;
    for (const nodes of opts.nodes) {
      const dir = path.join(tmp, `cluster-${nodes}`);
      fs.mkdirSync(dir, { recursive: true });
      // Cluster keeps the nodes' JWT_SECRET here: the one the seeded sessions' tokens are signed with.
      fs.writeFileSync(path.join(dir, 'jwt-secret'), jwtSecret, { mode: 0o600 });
      const cluster = await Cluster.start({
        dir,
        nodes,
        databaseUrl: database.url,
        redisUrl,
        redisPrefix,
        env: {
          NODE_ENV: 'production',
          // The bench's deposits are sandbox money on a database it drops.
          ALLOW_SANDBOX_PAYMENTS: 'true',
          LOG_LEVEL: 'warn',
          // Throughput, not a person: lift the per-client limits nobody reaches.
          API_RATE_LIMIT: '1000000000',
          MESSAGE_RATE_LIMIT: '1000000000',
          AUTH_RATE_LIMIT: '1000000',
          SHARE_IMAGES_AT_CREATION: 'false',
          ALERTS_EMAIL: 'false',
          ALERTS_PUSH: 'false',
        },
      });
      try {
        const nginxMaster = processStats().find((p) => p.comm === 'nginx' && p.ppid === process.pid)?.pid;
        const members = {
          apiPids: cluster.nodes.map((n) => n.child!.pid!),
          postmaster,
          database: databaseName,
          redisPort: Number(new URL(redisUrl).port || 6379),
        };
        const target: Target = { via: 'nginx', nodes, url: cluster.url, members: { ...members, nginxMaster } };
        if (opts.warmup > 0) {
          run = await warmUp(
            cluster.nodes.map((n) => n.url),
            target,
            seeded,
            run,
            opts,
          );
        }
        // What the processes spend with nothing to serve (timers, Redis heartbeats, other programs' use of Redis).
        await new Promise((r) => setTimeout(r, 1_000));
        const quiet = snapshot({ ...target.members, loadPid: -1 });
        await new Promise((r) => setTimeout(r, IDLE_MS));
        const idle = spent(quiet, snapshot({ ...target.members, loadPid: -1 }));
        const idlePerSecond = {
          api: (idle.api * 1000) / IDLE_MS,
          postgres: (idle.postgres * 1000) / IDLE_MS,
          redis: (idle.redis * 1000) / IDLE_MS,
        };
        target.idle = idlePerSecond;
        idleCpu.push({ nodes, usPerSecond: idlePerSecond });
        console.log(
          `  [${elapsed()}] ${nodes} node(s) up behind nginx${opts.warmup > 0 ? ' and warmed up' : ''}; idle CPU a second: ` +
            `${(idlePerSecond.api / nodes / 1000).toFixed(1)} ms a node, PostgreSQL ${(idlePerSecond.postgres / 1000).toFixed(1)} ms, Redis ${(idlePerSecond.redis / 1000).toFixed(1)} ms`,
        );
        if (nodes === 1)
          rows.push(
            ...(await measureTarget(
              { via: 'direct', nodes, url: cluster.nodes[0].url, members, idle: target.idle },
              seeded,
              run++,
              db,
              opts,
            )),
          );
        rows.push(...(await measureTarget(target, seeded, run++, db, opts)));
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await db?.close();
    await database.drop();
    await removeRedisKeys(redisUrl, redisPrefix).catch((err: unknown) =>
      console.error(`could not remove Redis keys ${redisPrefix}*: ${String(err)}`),
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const order = { gives: 0, feed: 1, chat: 2 };
  rows.sort((a, b) => order[a.scenario] - order[b.scenario] || (a.via === 'direct' ? -1 : b.via === 'direct' ? 1 : a.nodes - b.nodes));
  console.log(
    `\nCPU time per request (chat: per message) in µs, by process group, less what the group spends idle over as long; "other": the rest of the machine's busy time\n`,
  );
  for (const line of tableLines(rows, false)) console.log(line);
  const caps = capacities(rows);
  console.log('');
  for (const line of capacityLines(caps)) console.log(line);
  console.log(`\nmarkdown:\n${tableLines(rows, true).join('\n')}`);

  const out = path.resolve('test-results/bench-cluster.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadAverageAtStart: load, node: process.version };
  const seeding = { feedLinks: FEED_LINKS, givers: GIVERS, receiveLinksPerRun: RECEIVE_LINKS, chatPairs: opts.pairs };
  fs.writeFileSync(
    out,
    `${JSON.stringify({ startedAt, finishedAt: new Date(), machine, options: opts, seed: seeding, idleCpu, rows, capacities: caps }, null, 2)}\n`,
  );
  console.log(`\nwrote ${path.relative(process.cwd(), out)} (${elapsed()} in all)`);
  if (rows.some((r) => r.problem)) process.exitCode = 1;
}

await main();
