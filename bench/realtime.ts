/**
 * `npm run bench:realtime`: message delivery over socket.io, Giftlink against a bare socket.io
 * echo server on the same machine (the ceiling).
 *
 * Scenarios (each in fresh processes):
 *   echo      1,000 and 5,000 clients on one bare socket.io process (room emit, no auth, no DB)
 *   giftlink  1,000 and 5,000 clients on one API process: authenticated sockets, every message
 *             persisted (`sendMessage` → transaction → `new-message` to both members' rooms)
 *   +redis    1,000 clients across two processes through Redis (echo and giftlink): each pair's
 *             sender is on one process and its recipient on the other, so every delivery
 *             crosses the Redis adapter. Skipped when Redis is not reachable.
 *
 * Clients are pairs (sender → recipient, one conversation each), all connected at once, in one
 * load-generator process of their own (so they do not share the server's event loop; on a small
 * machine they still share its CPUs). Each scenario measures:
 *   - fixed rate: --rate messages/s in all (round-robin over the senders) for --seconds, open loop:
 *     delivery latency p50/p99/max (send → the recipient's event), nothing lost;
 *   - saturation: --window messages in flight (each sender waits for its ack) for --seconds:
 *     messages/s delivered and latency under that load.
 *
 * Options: --db sqlite|postgres (Giftlink's database, default sqlite; postgres uses DATABASE_URL
 * or postgres://postgres@127.0.0.1:5432/test), --rate N (default 200), --seconds N (default 5),
 * --window N (default 64), --only echo|giftlink, --no-redis. Redis: REDIS_URL or
 * redis://127.0.0.1:6379. Results also go to test-results/bench-realtime.json.
 *
 * Open files: 5,000 clients need 5,000 descriptors in the load generator and as many in the
 * server. Each child raises its soft `ulimit -n` to the hard limit; if the hard limit is below
 * ~6,000, raise it first (e.g. `ulimit -Hn 65536` as root, or in /etc/security/limits.conf).
 *
 * The parts live in bench/realtime/: the IPC messages (protocol.ts), the server children
 * (servers.ts), the load generator (clients.ts), spawning children (processes.ts), a scenario
 * (scenario.ts), the options (options.ts) and the summary table (report.ts). Every child is this
 * script again, with its role as the first argument.
 */
import fs from 'node:fs';
import os from 'node:os';
import { clientsChild } from './realtime/clients.js';
import { parseOptions } from './realtime/options.js';
import { goals, table } from './realtime/report.js';
import { redisReachable, runScenario, type Row, type Scenario } from './realtime/scenario.js';
import { echoChild, serverChild } from './realtime/servers.js';

const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

async function orchestrate(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS;
  const withRedis = opts.redis && (await redisReachable(redisUrl));
  const scenarios: Scenario[] = [];
  for (const kind of ['echo', 'giftlink'] as const) {
    if (opts.only && opts.only !== kind) continue;
    scenarios.push({ kind, clients: 1000, processes: 1 }, { kind, clients: 5000, processes: 1 });
    if (withRedis) scenarios.push({ kind, clients: 1000, processes: 2 });
  }
  console.log(
    `bench:realtime — ${os.cpus().length} CPUs, node ${process.version}, Giftlink on ${opts.db}, ` +
      `${opts.rate} msg/s for ${opts.seconds} s then ${opts.window} in flight for ${opts.seconds} s` +
      (withRedis ? `, Redis ${redisUrl}` : ', no Redis (two-process scenarios skipped)'),
  );
  const rows: Row[] = [];
  const started = performance.now();
  for (const s of scenarios) {
    const t = performance.now();
    const row = await runScenario(s, opts, redisUrl);
    rows.push(row);
    console.log(
      `  ${s.kind} ${s.clients} clients on ${s.processes} process(es): ` +
        `p50 ${row.fixed.p50} ms, p99 ${row.fixed.p99} ms at ${opts.rate}/s; ` +
        `${row.saturation.messagesPerSecond} msg/s saturated (${((performance.now() - t) / 1000).toFixed(0)} s)`,
    );
  }
  table(rows, opts);
  goals(rows, opts);
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync('test-results/bench-realtime.json', JSON.stringify({ options: opts, cpus: os.cpus().length, rows }, null, 2));
}

const role = process.argv[2];
const main = role === 'server' ? serverChild : role === 'echo' ? echoChild : role === 'clients' ? clientsChild : orchestrate;
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
