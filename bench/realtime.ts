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
 */
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { freshPostgres } from '../api/src/testing/server.js';
import { numberArg } from './args.js';

const SCRIPT = fileURLToPath(import.meta.url);
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

// ---------------------------------------------------------------------------------------------
// Messages between the orchestrator and its children (IPC)

interface SeedRequest {
  type: 'seed';
  pairs: number;
}
interface Seeded {
  type: 'seeded';
  tokens: string[];
  /** Pair i: client 2i sends to client 2i+1 in conversations[i]. */
  conversations: string[];
}
interface Listening {
  type: 'listening';
  url: string;
}

interface ClientSpec {
  kind: 'echo' | 'giftlink';
  /** Per client: the server it connects to (index into urls) and its credential (token or room). */
  urls: string[];
  clients: { url: number; credential: string }[];
  /** Pair i: clients 2i → 2i+1; Giftlink conversation id, or the recipient's room for echo. */
  targets: string[];
  rate: number;
  seconds: number;
  window: number;
}

interface PhaseResult {
  sent: number;
  delivered: number;
  lost: number;
  errors: number;
  seconds: number;
  messagesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
}

interface ClientsResult {
  type: 'result';
  connectSeconds: number;
  fixed: PhaseResult;
  saturation: PhaseResult;
}

// ---------------------------------------------------------------------------------------------
// Children

/** A Giftlink API process (the real startServer); the first one seeds users and conversations. */
async function serverChild(): Promise<void> {
  const { loadConfig } = await import('../api/src/config.js');
  const { startServer } = await import('../api/src/server.js');
  const { UserEntity, newUserRecord } = await import('../api/src/users/entity.js');
  const { SessionEntity } = await import('../api/src/auth/entity.js');
  const { newSessionRecord, sessionToken } = await import('../api/src/auth/session.js');
  const { ConversationEntity } = await import('../api/src/conversations/entity.js');
  const server = await startServer(loadConfig());
  const { db, tokens } = server.deps;
  process.on('message', (m: SeedRequest | { type: 'stop' }) => {
    if (m.type === 'stop') {
      void server.close().then(() => process.exit(0));
      return;
    }
    void (async () => {
      const users = Array.from({ length: m.pairs * 2 }, (_, i) =>
        newUserRecord({ username: `rt${i}`, email: `rt${i}@example.com`, passwordHash: 'bench-no-login' }),
      );
      const now = new Date();
      const conversations = Array.from({ length: m.pairs }, (_, i) => ({
        id: crypto.randomUUID(),
        initiatorId: users[2 * i].id,
        responderId: users[2 * i + 1].id,
        initiatorAnonymous: true,
        pairKey: `anon:${crypto.randomUUID()}`,
        lastMessageId: null,
        lastMessageAt: now,
        createdAt: now,
      }));
      for (let i = 0; i < users.length; i += 250)
        await db.transaction((em) => em.createQueryBuilder().insert().into(UserEntity).values(users.slice(i, i + 250)).updateEntity(false).execute());
      for (let i = 0; i < conversations.length; i += 250)
        await db.transaction((em) =>
          em.createQueryBuilder().insert().into(ConversationEntity).values(conversations.slice(i, i + 250)).updateEntity(false).execute(),
        );
      const sessions = users.map((u) => newSessionRecord(u.id, { ttlHours: server.deps.config.tokenTtlHours, userAgent: 'bench' }));
      for (let i = 0; i < sessions.length; i += 250)
        await db.transaction((em) => em.createQueryBuilder().insert().into(SessionEntity).values(sessions.slice(i, i + 250)).updateEntity(false).execute());
      const signed = await Promise.all(sessions.map((s) => sessionToken(tokens, s)));
      send({ type: 'seeded', tokens: signed, conversations: conversations.map((c) => c.id) } satisfies Seeded);
    })();
  });
  send({ type: 'listening', url: server.url } satisfies Listening);
}

/** The ceiling: bare socket.io, each socket in the room its handshake names, a room emit per message. */
async function echoChild(): Promise<void> {
  const server = http.createServer();
  const io = new Server(server, { serveClient: false });
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (redisUrl) {
    const pub = createClient({ url: redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: `${process.env.BENCH_REDIS_PREFIX}:socket.io` }));
  }
  io.on('connection', (socket) => {
    const room = String((socket.handshake.auth as { room?: unknown }).room);
    void socket.join(room);
    socket.on('msg', (payload: { to: string; text: string }, ack?: (ok: boolean) => void) => {
      // Like Giftlink: the recipient's room and the sender's own room, then the ack.
      io.to(payload.to).emit('msg', { text: payload.text, from: room });
      io.to(room).emit('msg-self', { text: payload.text });
      ack?.(true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stop') {
      void io.close();
      setTimeout(() => process.exit(0), 200);
    }
  });
  send({ type: 'listening', url: `http://127.0.0.1:${port}` } satisfies Listening);
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/** The load generator: connects every client, then runs the fixed-rate and saturation phases. */
async function clientsChild(): Promise<void> {
  const spec = await new Promise<ClientSpec>((resolve) => process.once('message', (m) => resolve(m as ClientSpec)));
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  let delivered = 0;

  const record = (text: string) => {
    const t = sentAt.get(text);
    if (t === undefined) return;
    sentAt.delete(text);
    latencies.push(performance.now() - t);
    delivered += 1;
  };

  const started = performance.now();
  const sockets: Socket[] = new Array(spec.clients.length);
  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const c = spec.clients[i];
      const socket = connectSocket(spec.urls[c.url], {
        transports: ['websocket'],
        auth: spec.kind === 'giftlink' ? { token: c.credential } : { room: c.credential },
        reconnection: false,
        forceNew: true,
        timeout: 60_000,
      });
      sockets[i] = socket;
      const ready = spec.kind === 'giftlink' ? 'init' : 'connect';
      socket.once(ready, () => resolve());
      socket.once('connect_error', reject);
      if (i % 2 === 1) {
        if (spec.kind === 'giftlink')
          socket.on('new-message', (e: { message: { text: string; mine: boolean } }) => {
            if (!e.message.mine) record(e.message.text);
          });
        else socket.on('msg', (e: { text: string }) => record(e.text));
      }
    });
  for (let i = 0; i < spec.clients.length; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, spec.clients.length - i) }, (_, k) => connectOne(i + k)));
  }
  const connectSeconds = (performance.now() - started) / 1000;

  const pairs = spec.targets.length;
  let next = 0;
  let counter = 0;
  let errors = 0;
  const sendOne = (phase: string): Promise<void> => {
    const pair = next++ % pairs;
    const text = `${phase}:${counter++}`;
    const socket = sockets[2 * pair];
    sentAt.set(text, performance.now());
    return new Promise<void>((resolve) => {
      const ack = (answer: { ok: boolean } | boolean) => {
        if (answer !== true && !(typeof answer === 'object' && answer.ok)) {
          errors += 1;
          sentAt.delete(text);
        }
        resolve();
      };
      if (spec.kind === 'giftlink') socket.emit('sendMessage', { conversationId: spec.targets[pair], text }, ack);
      else socket.emit('msg', { to: spec.targets[pair], text }, ack);
    });
  };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const drain = async () => {
    for (let i = 0; i < 50 && sentAt.size > 0; i += 1) await sleep(100);
  };
  const summarize = (sent: number, seconds: number): PhaseResult => {
    const sorted = latencies.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      sent,
      delivered,
      lost: sentAt.size,
      errors,
      seconds: round(seconds),
      messagesPerSecond: Math.round(delivered / seconds),
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
    };
  };
  const reset = () => {
    latencies = [];
    delivered = 0;
    errors = 0;
    sentAt.clear();
  };

  /** Open loop at `rate`/s for `seconds` (a tick every 10 ms). */
  const fixedRate = async (phase: string, seconds: number): Promise<number> => {
    const end = performance.now() + seconds * 1000;
    const begin = performance.now();
    let sent = 0;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - begin) / 1000) * spec.rate);
      for (; sent < due; sent += 1) void sendOne(phase);
      await sleep(10);
    }
    return sent;
  };

  // warm-up, then the measured fixed-rate phase
  await fixedRate('warm', 1);
  await drain();
  reset();
  const fixedSent = await fixedRate('fixed', spec.seconds);
  const fixedWindow = spec.seconds;
  await drain();
  const fixed = summarize(fixedSent, fixedWindow);

  reset();
  const satBegin = performance.now();
  const satEnd = satBegin + spec.seconds * 1000;
  let satSent = 0;
  await Promise.all(
    Array.from({ length: spec.window }, async () => {
      while (performance.now() < satEnd) {
        satSent += 1;
        await sendOne('sat');
      }
    }),
  );
  const satSeconds = (performance.now() - satBegin) / 1000;
  await drain();
  const saturation = summarize(satSent, satSeconds);

  for (const s of sockets) s.disconnect();
  send({ type: 'result', connectSeconds: Math.round(connectSeconds * 10) / 10, fixed, saturation } satisfies ClientsResult);
  setTimeout(() => process.exit(0), 100);
}

function send(message: unknown): void {
  process.send?.(message);
}

// ---------------------------------------------------------------------------------------------
// Orchestrator

interface Options {
  db: 'sqlite' | 'postgres';
  rate: number;
  seconds: number;
  window: number;
  only?: 'echo' | 'giftlink';
  redis: boolean;
}

function parseOptions(argv: string[]): Options {
  const opts: Options = { db: 'sqlite', rate: 200, seconds: 5, window: 64, redis: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--db') {
      const v = value();
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--db must be sqlite or postgres');
      opts.db = v;
    } else if (flag === '--only') {
      const v = value();
      if (v !== 'echo' && v !== 'giftlink') throw new Error('--only must be echo or giftlink');
      opts.only = v;
    } else if (flag === '--rate') opts.rate = numberArg('--rate', value(), 1, 100_000);
    else if (flag === '--seconds') opts.seconds = numberArg('--seconds', value(), 1, 120);
    else if (flag === '--window') opts.window = Math.round(numberArg('--window', value(), 1, 10_000));
    else if (flag === '--no-redis') opts.redis = false;
    else if (flag === '--help' || flag === '-h') {
      console.log('npm run bench:realtime -- [--db sqlite|postgres] [--rate N] [--seconds N] [--window N] [--only echo|giftlink] [--no-redis]');
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (try --help)`);
  }
  return opts;
}

/** A child of this script in the given role, with its soft open-files limit raised to the hard one. */
function child(role: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(
    'bash',
    ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, '--import', 'tsx', SCRIPT, role],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } },
  );
}

function nextMessage<T extends { type: string }>(proc: ChildProcess, type: T['type'], timeoutMs = 180_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), timeoutMs);
    const onMessage = (m: unknown) => {
      if ((m as { type?: string }).type !== type) return;
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code} before ${type}`));
    };
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.send({ type: 'stop' });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface Scenario {
  kind: 'echo' | 'giftlink';
  clients: number;
  processes: 1 | 2;
}

interface Row extends Scenario {
  connectSeconds: number;
  fixed: PhaseResult;
  saturation: PhaseResult;
}

async function redisReachable(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return true;
  } catch {
    return false;
  }
}


async function runScenario(s: Scenario, opts: Options, redisUrl: string): Promise<Row> {
  const pairs = s.clients / 2;
  const prefix = `giftlink-bench-${crypto.randomBytes(4).toString('hex')}`;
  const servers: ChildProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  try {
    let urls: string[];
    let credentials: string[];
    let targets: string[];
    if (s.kind === 'echo') {
      const env: Record<string, string> = s.processes === 2 ? { BENCH_REDIS_URL: redisUrl, BENCH_REDIS_PREFIX: prefix } : {};
      for (let i = 0; i < s.processes; i += 1) servers.push(child('echo', env));
      urls = (await Promise.all(servers.map((p) => nextMessage<Listening>(p, 'listening')))).map((m) => m.url);
      credentials = Array.from({ length: s.clients }, (_, i) => `room${i}`);
      targets = Array.from({ length: pairs }, (_, i) => `room${2 * i + 1}`);
    } else {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-rt-'));
      cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The benchmark measures throughput: lift the per-user limits a person would never reach.
        MESSAGE_RATE_LIMIT: '1000000',
        API_RATE_LIMIT: '1000000',
        JWT_SECRET: crypto.randomBytes(32).toString('hex'),
        REDIS_PREFIX: prefix,
        DATABASE_URL: '',
        REDIS_URL: s.processes === 2 ? redisUrl : '',
      };
      if (opts.db === 'postgres') {
        const db = await freshPostgres(process.env.DATABASE_URL || DEFAULT_PG, 'giftlink_rt');
        cleanup.unshift(db.drop);
        env.DATABASE_URL = db.url;
      }
      // The first process runs the migrations before the second opens the database.
      servers.push(child('server', env));
      urls = [(await nextMessage<Listening>(servers[0], 'listening')).url];
      if (s.processes === 2) {
        servers.push(child('server', env));
        urls.push((await nextMessage<Listening>(servers[1], 'listening')).url);
      }
      servers[0].send({ type: 'seed', pairs } satisfies SeedRequest);
      const seeded = await nextMessage<Seeded>(servers[0], 'seeded');
      credentials = seeded.tokens;
      targets = seeded.conversations;
    }
    // Two processes: sender and recipient of each pair on different ones (alternating direction).
    const clients = credentials.map((credential, i) => ({
      credential,
      url: s.processes === 2 ? (i + Math.floor(i / 2)) % 2 : 0,
    }));
    const load = child('clients');
    load.send({ kind: s.kind, urls, clients, targets, rate: opts.rate, seconds: opts.seconds, window: opts.window } satisfies ClientSpec);
    const result = await nextMessage<ClientsResult>(load, 'result');
    await new Promise<void>((resolve) => (load.exitCode !== null ? resolve() : load.once('exit', () => resolve())));
    return { ...s, connectSeconds: result.connectSeconds, fixed: result.fixed, saturation: result.saturation };
  } finally {
    await Promise.all(servers.map(stop));
    for (const c of cleanup) await c();
  }
}

function table(rows: Row[], opts: Options): void {
  const name = (r: Row) =>
    `${r.kind === 'echo' ? 'bare socket.io echo' : `giftlink (${opts.db})`}${r.processes === 2 ? ', 2 processes + Redis' : ''}`;
  const header = ['scenario', 'clients', 'connect s', `@${opts.rate}/s p50 ms`, 'p99 ms', 'lost', 'sat. msg/s', 'sat. p50 ms', 'sat. p99 ms', 'errors'];
  const lines = rows.map((r) => [
    name(r),
    String(r.clients),
    r.connectSeconds.toFixed(1),
    r.fixed.p50.toFixed(1),
    r.fixed.p99.toFixed(1),
    String(r.fixed.lost + r.saturation.lost),
    String(r.saturation.messagesPerSecond),
    r.saturation.p50.toFixed(1),
    r.saturation.p99.toFixed(1),
    String(r.fixed.errors + r.saturation.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(fmt(l));
}

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
