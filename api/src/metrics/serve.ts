import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { Gauge, type GaugeConfiguration } from 'prom-client';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { Metrics } from './metrics.js';

/** What is read at each scrape rather than counted as it happens. */
export interface ScrapeSources {
  db: Database;
  /** The sockets open on this process. */
  sockets: () => number;
  /** Payment intents pending, by kind, every kind (a query). */
  pendingPayments: () => Promise<{ kind: string; count: number }[]>;
}

export interface MetricsServer {
  /** Where /metrics answers, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

/** A scrape's database read gives up after this: the scrape answers without it rather than hang in an outage. */
const QUERY_TIMEOUT_MS = 2_000;

/**
 * Registers the gauges read at scrape time, and serves `GET /metrics` on METRICS_HOST:METRICS_PORT,
 * a server of its own: the public port never answers it.
 */
export async function serveMetrics(
  metrics: Metrics,
  config: Pick<Config, 'metricsPort' | 'metricsHost'>,
  sources: ScrapeSources,
  log: Logger,
): Promise<MetricsServer> {
  watch(metrics, sources, log);
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort, config.metricsHost, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function watch(metrics: Metrics, { db, sockets, pendingPayments }: ScrapeSources, log: Logger): void {
  // Into this server's registry only (prom-client's default is its global one).
  const gauge = (config: GaugeConfiguration<string>) => metrics.registry.registerMetric(new Gauge({ ...config, registers: [] }));
  gauge({
    name: 'giftlink_sockets_open',
    help: 'socket.io connections open on this process',
    collect() {
      this.set(sockets());
    },
  });
  if (db.pool) {
    gauge({
      name: 'giftlink_db_pool_connections',
      help: "PostgreSQL: the pool's connections, all (total) and unused (idle)",
      labelNames: ['state'],
      collect() {
        const pool = db.pool;
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
      },
    });
    gauge({
      name: 'giftlink_db_pool_waiting',
      help: 'PostgreSQL: queries waiting for a connection of the pool',
      collect() {
        this.set(db.pool?.waiting ?? 0);
      },
    });
  }
  gauge({
    name: 'giftlink_payment_intents_pending',
    help: 'Deposits and withdrawals waiting for the payment provider, by kind',
    labelNames: ['kind'],
    async collect() {
      try {
        for (const { kind, count } of await withTimeout(pendingPayments(), QUERY_TIMEOUT_MS)) this.set({ kind }, count);
      } catch (err) {
        // Unknown, not 0: no series at all until the database answers again.
        this.reset();
        log.warn({ err }, 'metrics: pending payment intents unread');
      }
    },
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
