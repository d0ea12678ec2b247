/**
 * N API nodes behind nginx on one PostgreSQL and one Redis: `npm run cluster` and
 * `npm run cluster-chaos` start it through here. Every node has its own port and the same
 * DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, DATA_DIR and PUBLIC_URL (nginx's).
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Nginx } from './nginx.js';
import { ApiNode, MAIN, freePort } from './processes.js';

export interface ClusterOptions {
  /** Where nginx's files, the nodes' logs and the shared DATA_DIR go. */
  dir: string;
  nodes: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** nginx's port (default: a free one). */
  port?: number;
  /** More settings for every node. */
  env?: Record<string, string>;
}

/** `npm start`'s build: the web app and the server, once. */
export function build(): void {
  execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
  execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
}

/** The database of `url` (created when missing) on its server. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export class Cluster {
  readonly nodes: ApiNode[] = [];
  private readonly drained = new Set<ApiNode>();

  private constructor(readonly nginx: Nginx) {}

  get url(): string {
    return this.nginx.url;
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first`);
    Nginx.ensureInstalled();
    fs.mkdirSync(options.dir, { recursive: true });
    const nginx = new Nginx(path.join(options.dir, 'nginx'), options.port ?? (await freePort()));
    const cluster = new Cluster(nginx);
    const dataDir = path.join(options.dir, 'data');
    const env: Record<string, string> = {
      LOG_LEVEL: 'info',
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: options.redisPrefix,
      JWT_SECRET: secret(options.dir),
      DATA_DIR: dataDir,
      PUBLIC_URL: nginx.url,
      // nginx is the one proxy: the client is the address it appends to X-Forwarded-For.
      TRUST_PROXY: 'true',
      TRUST_PROXY_HOPS: '1',
    };
    for (let i = 0; i < options.nodes; i++) {
      const name = `node${i + 1}`;
      cluster.nodes.push(new ApiNode(name, await freePort(), env, path.join(options.dir, `${name}.log`)));
    }
    // The first alone: it runs the migrations and stores the first invite, which the others then find.
    await cluster.nodes[0].start();
    await Promise.all(cluster.nodes.slice(1).map((n) => n.start()));
    await nginx.start(cluster.upstreams());
    return cluster;
  }

  private upstreams() {
    return this.nodes.map((n) => ({ port: n.port, down: this.drained.has(n) }));
  }

  /** The invite a node printed when the database had no accounts yet. */
  firstInvite(): string | undefined {
    for (const node of this.nodes) {
      const url = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(node.output())?.[1];
      if (url) return url;
    }
    return undefined;
  }

  /** Takes `node` out of nginx's rotation (it gets nothing new) or puts it back. */
  async drain(node: ApiNode, out: boolean): Promise<void> {
    if (out) this.drained.add(node);
    else this.drained.delete(node);
    await this.nginx.reload(this.upstreams());
  }

  /**
   * The rolling restart of docs/DEPLOY.md for one node: out of rotation, SIGTERM (it finishes what
   * is in flight and asks its sockets to reconnect elsewhere), started again, back in rotation.
   * Answers how long it took to stop, and to be ready again (ms).
   */
  async restart(node: ApiNode): Promise<{ stopMs: number; startMs: number }> {
    await this.drain(node, true);
    const started = Date.now();
    await node.stop('SIGTERM');
    const stopMs = Date.now() - started;
    const startMs = await node.start();
    await this.drain(node, false);
    return { stopMs, startMs };
  }

  async stop(): Promise<void> {
    await this.nginx.stop();
    await Promise.all(this.nodes.map((n) => n.stop('SIGTERM', 10_000)));
  }
}

/** One JWT_SECRET for every node, kept in the cluster's directory across runs. */
function secret(dir: string): string {
  const file = path.join(dir, 'jwt-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** Resolves on Ctrl-C or SIGTERM. */
export function untilInterrupted(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });
}
