/**
 * `npm run cluster-chaos`: does the whole system keep its promises when a part of it fails?
 * Three API nodes behind nginx (scripts/cluster/) on a private PostgreSQL and a private Redis of
 * its own (never the machine's, which other tests share), loopback only. Under mixed load —
 * deposits, gives and link accepts with Idempotency-Keys, 200 chat sockets sending — it, in turn,
 * kill -9s one node and starts it again, restarts Redis, restarts PostgreSQL, and restarts every
 * node in turn (a rolling restart). Then it checks:
 *
 * - no acknowledged money lost or applied twice: every request without a final answer is sent
 *   again with its key, and every balance equals its baseline plus the acknowledged movements;
 * - every acknowledged message stored once, and every message delivered to every client of both
 *   members after their catch-ups, with no seq twice; the ledger's invariants; no job period run
 *   twice (the nodes' logs);
 * - during each outage requests were refused fast (503), and the product came back by itself.
 *
 * Prints what was sent, acknowledged, lost and duplicated, and each recovery time; exits 1 when a
 * check fails. Options: --no-build, --users N (default 50), --sockets-per-user N (default 4),
 * --outage-ms MS (default 3000), --faults kill,redis,postgres,rolling (the default; `none`: load only), --help.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { numberArg } from '../bench/args.js';
import { ChatLoad, RESYNC_MS } from './cluster/chat-load.js';
import { chatUsers, checkMessages, jobPeriods, ledgerProblems } from './cluster/checks.js';
import { Cluster, build } from './cluster/cluster.js';
import { answered, call, register, type Account } from './cluster/http.js';
import { MoneyLoad, setUpMoney } from './cluster/money-load.js';
import { sleep, waitFor } from './cluster/processes.js';
import { PrivatePostgres, PrivateRedis } from './cluster/services.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    `npm run cluster-chaos -- [--no-build] [--users N (10 or more)] [--sockets-per-user N] [--outage-ms MS] [--faults kill,redis,postgres,rolling|none] (on Node ${process.versions.node})`,
  );
  process.exit(0);
}
const opt = (name: string, fallback: number, min: number, max: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? numberArg(name, args[i + 1], min, max) : fallback;
};
// One account in five gives, and an accept needs a giving account other than its sender: two givers at least.
const USERS = Math.round(opt('--users', 50, 10, 200));
const SOCKETS_PER_USER = Math.round(opt('--sockets-per-user', 4, 1, 10));
const OUTAGE_MS = opt('--outage-ms', 3_000, 1, 30_000);
const STEADY_MS = 4_000;
const FAULTS = (args.includes('--faults') ? (args[args.indexOf('--faults') + 1] ?? '') : 'kill,redis,postgres,rolling').split(',');
/** The whole run's bound: past it, whatever is running is stopped and the run fails. */
const RUN_LIMIT_MS = 5 * 60_000;

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok ? 'ok' : 'FAILED';
};

/** One authenticated read every 100 ms (PostgreSQL, and the rate limit in Redis): when the product answers. */
class Probe {
  private readonly oks: number[] = [];
  private running = true;
  private readonly loop: Promise<void>;
  constructor(base: string, user: Account) {
    this.loop = (async () => {
      while (this.running) {
        const a = await call(base, 'GET', '/api/billing-settings-balance', user.token, undefined, undefined, 5_000);
        if (a.status === 200) this.oks.push(Date.now());
        await sleep(100);
      }
    })();
  }
  /** The first answer after `t`, waiting for it up to a minute: ms from `t`. */
  async recoveredAfter(t: number): Promise<number> {
    await waitFor('the product to answer again', () => this.oks.some((x) => x > t), 60_000);
    return this.oks.find((x) => x > t)! - t;
  }
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** The answers given between `from` and `to`: how many, which statuses, how long the slowest took. */
function answersBetween(from: number, to: number): string {
  const window = answered.filter((a) => a.at >= from && a.at + a.ms <= to + 1_000 && a.at < to);
  const statuses: Record<string, number> = {};
  for (const a of window) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const failed = window.filter((a) => a.status >= 500 || a.status === 0);
  const slowest = Math.max(0, ...failed.map((a) => a.ms));
  return `${window.length} answers ${JSON.stringify(statuses)}, slowest refusal ${slowest} ms`;
}

/** Requests without a usable answer (none, or 5xx) sent in [from, to), by status. */
function failedBetween(from: number, to: number): string {
  const failed = answered.filter((a) => a.at >= from && a.at < to && (a.status === 0 || a.status >= 500));
  const statuses: Record<string, number> = {};
  for (const a of failed) {
    const k = a.status ? String(a.status) : `no answer: ${a.error}`;
    statuses[k] = (statuses[k] ?? 0) + 1;
  }
  return `${failed.length} requests failed ${JSON.stringify(statuses)}`;
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-chaos-'));
  fs.chmodSync(tmp, 0o755); // PostgreSQL runs as its own user, nginx's workers as nobody
  const postgres = await PrivatePostgres.create(path.join(tmp, 'pg'));
  const redis = await PrivateRedis.create(path.join(tmp, 'redis'));
  let cluster: Cluster | undefined;
  let chat: ChatLoad | undefined;
  let finished = false;
  stopAll = async () => {
    chat?.close();
    await cluster?.stop();
    await redis.stop();
    postgres.destroy();
  };
  try {
    cluster = await Cluster.start({
      dir: path.join(tmp, 'cluster'),
      nodes: 3,
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      redisPrefix: 'chaos',
      env: {
        PAYMENTS: 'sandbox',
        PASSWORD_HASH_COST: 'test',
        INVITES_PER_USER: '100',
        API_RATE_LIMIT: '1000000',
        AUTH_RATE_LIMIT: '1000000',
        MESSAGE_RATE_LIMIT: '100000',
      },
    });
    const base = cluster.url;
    console.log(
      `cluster at ${base}: nodes ${cluster.nodes.map((n) => n.port).join(', ')}; PostgreSQL ${postgres.port}, Redis ${redis.port}`,
    );
    const invite = /\/invite\/([A-Za-z0-9_-]+)/.exec(cluster.firstInvite() ?? '')?.[1];
    if (!invite) throw new Error('no invite printed');
    const accounts = await setUpMoney(base, await register(base, invite, USERS, 'chaos'));
    const money = new MoneyLoad(base, accounts);
    await money.seedConversations();
    const { users, baseline } = await chatUsers(postgres.url, accounts);
    chat = new ChatLoad(base, users, SOCKETS_PER_USER);
    const sockets = chat.clients.length;
    const allConnected = () => chat!.connected() === sockets;
    await waitFor(`${sockets} sockets`, allConnected, 60_000);
    const balances = await money.balances();
    console.log(`${USERS} users, ${sockets} sockets connected; load starts`);
    console.log('\nfaults, as they happen');

    const probe = new Probe(base, accounts[0]);
    money.start(12);
    chat.start(1_500);
    await sleep(STEADY_MS);
    const recoveries: string[] = [];
    const outages: string[] = [];
    const marks: [string, number][] = [['load', Date.now()]];
    const say = (list: string[], line: string) => {
      list.push(line);
      console.log(`  ${line}`);
    };
    /** Until every socket is connected again (at most `ms`): when, or how many are not. */
    const socketsBack = async (since: number, ms = 30_000) => {
      try {
        await waitFor('sockets', allConnected, ms);
        return `all sockets connected ${Date.now() - since} ms after`;
      } catch {
        return `${sockets - chat!.connected()} sockets NOT connected after ${ms} ms ${check(false, 'sockets did not reconnect')} (${JSON.stringify(chat!.refusals())})`;
      }
    };

    // 1. kill -9 one node, and start it again.
    const victim = cluster.nodes[1];
    let t = Date.now();
    if (FAULTS.includes('kill')) {
      marks.push(['kill -9', t]);
      await victim.stop('SIGKILL');
      await sleep(OUTAGE_MS);
      const ready = await victim.start();
      const afterKill = await socketsBack(t);
      say(
        recoveries,
        `kill -9 ${victim.name}: ${failedBetween(t, Date.now())} (resent later), the node ready ${ready} ms after its start; ${afterKill} the kill`,
      );
      await sleep(STEADY_MS);
    }

    // 2. and 3. Redis, then PostgreSQL: down for OUTAGE_MS, then up again.
    for (const [name, service] of [
      ['Redis', redis],
      ['PostgreSQL', postgres],
    ] as const) {
      if (!FAULTS.includes(name === 'Redis' ? 'redis' : 'postgres')) continue;
      t = Date.now();
      marks.push([`${name} restart`, t]);
      await service.stop();
      const down = Date.now();
      await sleep(OUTAGE_MS);
      const back = Date.now();
      await service.start();
      const up = Date.now();
      say(outages, `${name} down ${up - down} ms: ${answersBetween(down, back)}`);
      const answering = await probe.recoveredAfter(up);
      say(recoveries, `${name} restart: answering again ${answering} ms after it was back; ${await socketsBack(up)}`);
      await sleep(STEADY_MS);
    }

    // 4. A rolling restart: each node out of nginx's rotation, SIGTERM, started, back in.
    if (FAULTS.includes('rolling')) {
      t = Date.now();
      marks.push(['rolling restart', t]);
      const steps: string[] = [];
      for (const node of cluster.nodes) {
        const { stopMs, startMs } = await cluster.restart(node);
        steps.push(`${node.name} stopped in ${stopMs} ms, ready in ${startMs} ms`);
      }
      const afterRolling = await socketsBack(t);
      say(
        recoveries,
        `rolling restart of ${cluster.nodes.length} nodes: ${Date.now() - t} ms, ${failedBetween(t, Date.now())}; ${afterRolling} it began (${steps.join('; ')})`,
      );
      await sleep(STEADY_MS);
    }
    if (FAULTS.includes('none')) await sleep(5 * STEADY_MS);

    await Promise.all([money.stop(), chat.stop(), probe.stop()]);
    console.log(`  at the end: ${await socketsBack(Date.now(), 10_000)}`);
    await sleep(2 * RESYNC_MS + 1_000); // deliveries in flight, and every client's resync after them
    const resolved = await money.resolve(90_000);
    const wrongReplays = await money.replaySample(20);
    const mismatched = await money.mismatches(balances);
    const messages = await checkMessages(postgres.url, chat.clients, chat.sent, baseline);
    const ledger = await ledgerProblems(postgres.url);
    const jobs = jobPeriods(cluster.nodes.map((n) => path.join(tmp, 'cluster', `${n.name}.log`)));

    const acked = money.acknowledged();
    const kinds = (k: string) => acked.filter((s) => s.op.kind === k).length;
    console.log('\nfaults');
    for (const line of [...outages, ...recoveries]) console.log(`  ${line}`);
    console.log('\nmoney');
    console.log(
      `  sent ${money.sent.length}, acknowledged ${acked.length} (${kinds('deposit')} deposits, ${kinds('give')} gives, ${kinds('accept')} accepts), ` +
        `refused ${JSON.stringify(money.refused())}`,
    );
    console.log(
      `  resent with their keys ${resolved.resent}: ${resolved.appliedBefore} had been applied (replayed), ${resolved.stillOpen} without a final answer ` +
        check(resolved.stillOpen === 0, 'requests without a final answer'),
    );
    console.log(`  lost or applied twice: ${mismatched.length} balances differ ${check(!mismatched.length, 'money lost or doubled')}`);
    for (const m of mismatched.slice(0, 10)) console.log(`    ${m.username}: ${m.balance} cents, expected ${m.expected}`);
    console.log(`  replays of acknowledged requests answering otherwise: ${wrongReplays} ${check(wrongReplays === 0, 'replays')}`);
    console.log(`  ledger invariants: ${ledger ?? 'hold'} ${check(!ledger, 'ledger invariants')}`);
    console.log('\nchat');
    const sentOk = chat.sent.filter((s) => s.outcome === 'ok').length;
    console.log(
      `  sent ${chat.sent.length}, acknowledged ${sentOk}, refused ${chat.sent.filter((s) => s.outcome === 'refused').length}, ` +
        `unanswered ${chat.sent.filter((s) => s.outcome === 'unknown').length} (${messages.unknownStored} of the unacknowledged were stored)`,
    );
    console.log(
      `  lost (acknowledged, not stored): ${messages.lostAcknowledged} ${check(messages.lostAcknowledged === 0, 'messages lost')}`,
    );
    console.log(`  duplicated (stored twice): ${messages.duplicated} ${check(messages.duplicated === 0, 'messages duplicated')}`);
    console.log(
      `  seq: ${messages.duplicateSeqs} taken twice, ${messages.nullSeqs} missing ${check(messages.duplicateSeqs + messages.nullSeqs === 0, 'seq')}`,
    );
    console.log(
      `  deliveries missing after catch-up: ${messages.missingDeliveries} on ${messages.clientsMissing} of ${sockets} clients ` +
        `${check(messages.missingDeliveries === 0, 'deliveries missing')}; seq clashes on clients ${messages.clientSeqClashes} ` +
        `${check(messages.clientSeqClashes === 0, 'client seq clashes')}; ${messages.redelivered} deliveries of a message already held (dropped by its id)`,
    );
    const phaseOf = (at: number) => {
      const [label, start] = marks.filter(([, m]) => m <= at).at(-1) ?? ['setup', at];
      return `${label} +${((at - start) / 1000).toFixed(1)} s`;
    };
    if (messages.missingSentAt.length)
      console.log(`  chat messages missing somewhere, sent at: ${messages.missingSentAt.slice(0, 12).map(phaseOf).join(', ')}`);
    for (const line of messages.missingDetails) console.log(`    ${line}`);
    console.log(
      `  catch-ups refused and asked again: ${chat.clients.reduce((n, c) => n + c.catchUpRefusals, 0)}; ` +
        `connects ${chat.clients.reduce((n, c) => n + c.connects, 0)} for ${sockets} clients`,
    );
    console.log('\njobs');
    console.log(
      `  periods run: ${jobs.ran}; run twice: ${jobs.twice.length} ${check(!jobs.twice.length, `job periods run twice ${jobs.twice.join(', ')}`)}`,
    );
    finished = true;
  } finally {
    await stopAll();
    if (finished && !failures.length) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`\nfiles kept in ${tmp}`);
  }
  console.log(failures.length ? `\nFAILED: ${failures.join('; ')}` : '\nOK: nothing lost, nothing applied twice');
  if (failures.length) process.exitCode = 1;
}

/** Stops every process the run started (nodes, nginx, Redis, PostgreSQL): also when it runs out of time. */
let stopAll: () => Promise<void> = async () => {};
const limit = setTimeout(() => {
  console.log(`\nFAILED: the run took longer than ${RUN_LIMIT_MS / 1000} s`);
  const bounded = new Promise((r) => setTimeout(r, 20_000).unref());
  void Promise.race([stopAll().catch(() => undefined), bounded]).then(() => process.exit(1));
}, RUN_LIMIT_MS);
limit.unref();
main().then(
  () => process.exit(),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
