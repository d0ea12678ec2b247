/**
 * The process's metrics, in Prometheus's text format (docs/OPERATIONS.md, "Metrics"), kept only
 * when METRICS_PORT is set (metrics/serve.ts serves them there, never on the public port).
 *
 * One registry per server, not prom-client's global one, so that tests starting several servers
 * in one process keep theirs apart. Labels are route patterns, methods, status codes, job names,
 * transfer kinds and channels: never an id, a username or a raw path (anonymity, and a bounded
 * number of series).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseObserver } from '../db/observer.js';
import type { Middleware } from '../http/context.js';
import type { JobRun } from '../jobs/scheduler.js';

/** From a millisecond to ten seconds: requests and transactions here take a few milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A COMMIT or a flush: tens of microseconds to a slow disk's hundreds of milliseconds. */
const DISK_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Transactions per COMMIT: up to the group committer's 128. */
const GROUP_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128];

/** Paths answered before the routers (no route pattern), named as themselves; every other such answer is `other`. */
const UNROUTED = new Set(['/healthz', '/readyz']);

type RequestLabels = { method: string; route: string; status: string };

export class Metrics implements DatabaseObserver {
  readonly registry = new Registry();

  private readonly requests = this.histogram(
    'giftlink_http_request_duration_seconds',
    'HTTP requests by method, route pattern and status: latency until the answer is ready (_count: requests)',
    ['method', 'route', 'status'],
    LATENCY_BUCKETS,
  );
  private readonly transactions = this.histogram(
    'giftlink_db_transaction_duration_seconds',
    'Transactions, from being asked for to committed (durable) or failed',
    ['outcome'],
    LATENCY_BUCKETS,
  );
  private readonly commits = this.histogram('giftlink_db_commit_duration_seconds', 'COMMIT statements', [], DISK_BUCKETS);
  private readonly groups = this.histogram(
    'giftlink_db_commit_group_size',
    'SQLite: transactions carried by one COMMIT (group commit)',
    [],
    GROUP_BUCKETS,
  );
  private readonly flushes = this.histogram(
    'giftlink_db_flush_duration_seconds',
    'SQLite: flushes (fsync) of the WAL, which answers wait for',
    [],
    DISK_BUCKETS,
  );
  private readonly messages = new Counter({
    name: 'giftlink_messages_sent_total',
    help: 'Chat and gift messages sent (committed and published)',
    registers: [this.registry],
  });
  private readonly transfers = new Counter({
    name: 'giftlink_ledger_transfers_total',
    help: 'Ledger transfers committed, by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly alerts = new Counter({
    name: 'giftlink_alerts_sent_total',
    help: 'Alert deliveries sent (an email or a push each), by channel',
    labelNames: ['channel'],
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'giftlink_job_runs_total',
    help: 'Scheduled job runs of this process, by job and outcome',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });
  private readonly cardRefusals = new Counter({
    name: 'giftlink_card_payments_refused_total',
    help: 'Card payments refused before or by the card (limits, a lock after declines, declines, risk blocks), by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  private readonly jobLastRun = this.gauge('giftlink_job_last_run_timestamp_seconds', "When this process's last run of the job began");
  private readonly jobLag = this.gauge('giftlink_job_lag_seconds', "How long after its period began this process's last run began");
  private readonly jobDuration = this.gauge('giftlink_job_duration_seconds', "How long this process's last run of the job took");

  /** Each answered request's labels, made once per method, route and status. */
  private readonly labels = new Map<string, Map<string, Map<number, RequestLabels>>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The outermost middleware: times every request and counts it under its route's pattern. */
  middleware(): Middleware {
    return async (ctx, next) => {
      const started = performance.now();
      let status: number | undefined;
      try {
        await next();
      } catch (err) {
        status = (err as { status?: number }).status ?? 500;
        throw err;
      } finally {
        const pattern = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        const route = pattern === undefined ? (UNROUTED.has(ctx.path) ? ctx.path : 'other') : String(pattern);
        this.requests.observe(this.requestLabels(ctx.method, route, status ?? ctx.status), (performance.now() - started) / 1000);
      }
    };
  }

  private requestLabels(method: string, route: string, status: number): RequestLabels {
    let routes = this.labels.get(method);
    if (!routes) this.labels.set(method, (routes = new Map()));
    let statuses = routes.get(route);
    if (!statuses) routes.set(route, (statuses = new Map()));
    let labels = statuses.get(status);
    if (!labels) statuses.set(status, (labels = { method, route, status: String(status) }));
    return labels;
  }

  transaction(seconds: number, committed: boolean): void {
    this.transactions.observe(committed ? COMMITTED : FAILED, seconds);
  }

  commit(seconds: number, group?: number): void {
    this.commits.observe(seconds);
    if (group !== undefined) this.groups.observe(group);
  }

  flush(seconds: number): void {
    this.flushes.observe(seconds);
  }

  counted(kinds: readonly string[]): void {
    for (const kind of kinds) this.transfers.inc({ kind });
  }

  messageSent(): void {
    this.messages.inc();
  }

  cardRefused(reason: string): void {
    this.cardRefusals.inc({ reason });
  }

  alertSent(channel: string): void {
    this.alerts.inc({ channel });
  }

  jobRan(job: string, run: JobRun): void {
    this.jobRuns.inc({ job, outcome: run.ok ? 'ok' : 'failed' });
    this.jobLastRun.set({ job }, run.at.getTime() / 1000);
    this.jobLag.set({ job }, run.lagMs / 1000);
    this.jobDuration.set({ job }, run.ms / 1000);
  }

  private histogram(name: string, help: string, labelNames: string[], buckets: number[]): Histogram {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, labelNames: ['job'], registers: [this.registry] });
  }
}

const COMMITTED = { outcome: 'committed' };
const FAILED = { outcome: 'failed' };
