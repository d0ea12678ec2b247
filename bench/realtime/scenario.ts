/** One scenario: its server processes (seeded for Giftlink), the load generator, then cleanup. */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { freshPostgres } from '../../api/src/db/fresh-postgres.js';
import type { Options } from './options.js';
import { child, nextMessage, stop } from './processes.js';
import type { ClientSpec, ClientsResult, Listening, PhaseResult, SeedRequest, Seeded } from './protocol.js';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

export interface Scenario {
  kind: 'echo' | 'giftlink';
  clients: number;
  processes: 1 | 2;
}

export interface Row extends Scenario {
  connectSeconds: number;
  fixed: PhaseResult;
  saturation: PhaseResult;
}

export async function redisReachable(url: string): Promise<boolean> {
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

export async function runScenario(s: Scenario, opts: Options, redisUrl: string): Promise<Row> {
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
        // Production's logging and costs; it moves no money, so the sandbox provider is allowed.
        ALLOW_SANDBOX_PAYMENTS: 'true',
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
