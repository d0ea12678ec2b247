import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverAlerts, sendAlertEmails } from '../alerts/job.js';
import { pushChannel } from '../push/channel.js';
import { startPushService, type TestPushService } from '../push/testing.js';
import { createScheduler } from '../jobs/jobs.js';
import { periodOf } from '../jobs/scheduler.js';
import { connectClient, giveGift, settle, type TestClient } from '../realtime/testing.js';
import { startMailingServer, type TestSmtp } from '../testing/smtp.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { ConfigError, loadConfig } from '../config.js';
import { beginDeposit } from '../wallet/intents.js';
import { SYSTEM_PAYMENTS, transfer, userAccount } from '../money/ledger.js';

/** The real server with METRICS_PORT (a free one), its metrics scraped over HTTP as Prometheus would. */
let smtp: TestSmtp;
let push: TestPushService;
let server: TestServer;
beforeAll(async () => {
  push = await startPushService();
  ({ smtp, server } = await startMailingServer({ METRICS_PORT: '0', COOKIE_SECURE: 'false', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' }));
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await push?.close();
});

const scrape = async (): Promise<{ samples: Samples; text: string }> => {
  const res = await fetch(server.metricsUrl!);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { samples: parseMetrics(text), text };
};

/** How much each sample moved between two scrapes (absent counts as 0). */
const moved =
  (before: Samples, after: Samples) =>
  (name: string, labels: Record<string, string> = {}) =>
    after.value(name, labels) - before.value(name, labels);

const requests = 'giftlink_http_request_duration_seconds_count';

interface Samples {
  /** The sample's value; 0 when there is none (a counter not yet moved). */
  value(name: string, labels?: Record<string, string>): number;
  has(name: string, labels?: Record<string, string>): boolean;
  names(): string[];
}

/** Prometheus's text format, as much of it as prom-client writes: `name{label="value",…} number` lines. */
function parseMetrics(text: string): Samples {
  const samples = new Map<string, number>();
  const key = (name: string, labels: Record<string, string>) =>
    `${name}{${Object.entries(labels)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join(',')}}`;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    samples.set(key(match[1], labels), Number(match[3]));
  }
  return {
    value: (name, labels = {}) => samples.get(key(name, labels)) ?? 0,
    has: (name, labels = {}) => samples.has(key(name, labels)),
    names: () => [...new Set([...samples.keys()].map((k) => k.slice(0, k.indexOf('{'))))],
  };
}

describe('metrics', () => {
  it('count a give, a socket message and failing requests, by route pattern and status, and name no one', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'met');
    const before = (await scrape()).samples;

    const { conversationId } = await giveGift(server, giver, recipient, 5);
    const socket: TestClient = await connectClient(server, { token: recipient.token });
    const ack = await socket.socket.timeout(5000).emitWithAck('sendMessage', { conversationId, text: 'thank you!' });
    expect(ack).toMatchObject({ ok: true });
    const refused = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: 'nope', amount: -1 } });
    expect(refused.status).toBe(400);
    const missing = await server.request('GET', `/conversations/find/${crypto.randomUUID()}`, { token: giver.token });
    expect(missing.status).toBe(404);
    expect((await server.request('GET', `/conversations/${giver.user._id}`, { token: giver.token })).status).toBe(200);

    const { samples: after, text } = await scrape();
    const delta = moved(before, after);
    expect(delta(requests, { method: 'POST', route: '/statuses/api/gives', status: '201' })).toBe(1);
    expect(delta(requests, { method: 'POST', route: '/statuses/api/gives', status: '400' })).toBe(1);
    expect(delta(requests, { method: 'POST', route: '/links/create', status: '201' })).toBe(1);
    expect(delta(requests, { method: 'GET', route: '/conversations/find/:conversationId', status: '404' })).toBe(1);
    expect(delta(requests, { method: 'GET', route: '/conversations/:userId', status: '200' })).toBe(1);
    expect(delta('giftlink_ledger_transfers_total', { kind: 'deposit' })).toBe(1);
    expect(delta('giftlink_ledger_transfers_total', { kind: 'give' })).toBe(1);
    // The gift's own message, then the thank-you over the socket.
    expect(delta('giftlink_messages_sent_total')).toBe(2);
    expect(after.value('giftlink_sockets_open')).toBe(1);
    expect(delta('giftlink_db_transaction_duration_seconds_count', { outcome: 'committed' })).toBeGreaterThanOrEqual(4);
    expect(delta('giftlink_db_commit_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    if (!server.deps.db.isPostgres) {
      expect(delta('giftlink_db_commit_group_size_count')).toBeGreaterThanOrEqual(1);
      expect(delta('giftlink_db_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    }
    // The event loop's lag, from prom-client's default metrics.
    expect(after.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(after.has('process_cpu_seconds_total')).toBe(true);

    // Route patterns only: no id, username or raw path of anyone.
    for (const trace of [giver.user._id, recipient.user._id, giver.user.username, recipient.user.username, conversationId])
      expect(text).not.toContain(trace);
    socket.close();
    await settle(100);
    expect((await scrape()).samples.value('giftlink_sockets_open')).toBe(0);
  });

  it('are served on their own port only: /metrics on the public port is a 404', async () => {
    // As Prometheus asks, and as a browser does (which gets the site's pages elsewhere).
    for (const accept of ['application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5', 'text/html']) {
      const pub = await fetch(`${server.url}/metrics`, { headers: { accept } });
      expect(pub.status).toBe(404);
      expect(await pub.text()).not.toContain('giftlink_');
    }
    const metricsOrigin = new URL(server.metricsUrl!);
    expect(metricsOrigin.hostname).toBe('127.0.0.1');
    expect(metricsOrigin.port).not.toBe(new URL(server.url).port);
    expect((await fetch(new URL('/', metricsOrigin))).status).toBe(404);
    expect((await fetch(new URL('/metrics', metricsOrigin), { method: 'POST' })).status).toBe(404);
  });

  it("count an alert email and push sent, and tell each job's last run and lag", async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'mej');
    const browser = push.browser();
    expect((await server.request('POST', '/api/push/subscriptions', { token: recipient.token, body: browser.subscription })).status).toBe(
      201,
    );
    // The earlier tests' alerts go first.
    await sendAlertEmails(server.deps, new Date());
    await deliverAlerts(server.deps, pushChannel(server.deps), new Date());
    await giveGift(server, giver, recipient, 1);
    const before = (await scrape()).samples;
    expect((await sendAlertEmails(server.deps, new Date())).sent).toBe(1);
    expect(smtp.inbox.filter((m) => m.to.includes(recipient.user.email))).toHaveLength(1);
    expect((await deliverAlerts(server.deps, pushChannel(server.deps), new Date())).sent).toBe(1);
    expect(push.received.filter((p) => p.browser === browser.id)).toHaveLength(1);

    // A run in a period ahead of the server's own scheduler, so this one claims it.
    const now = new Date(Date.now() + 30 * 24 * 3600_000);
    const scheduler = createScheduler(server.deps, server.deps.payments);
    const ran = await scheduler.tick(now);
    await scheduler.stop();
    expect(ran).toContain('links.expire');

    const after = (await scrape()).samples;
    expect(moved(before, after)('giftlink_alerts_sent_total', { channel: 'email' })).toBe(1);
    expect(moved(before, after)('giftlink_alerts_sent_total', { channel: 'push' })).toBe(1);
    const job = { job: 'links.expire' };
    expect(moved(before, after)('giftlink_job_runs_total', { ...job, outcome: 'ok' })).toBe(1);
    expect(after.value('giftlink_job_last_run_timestamp_seconds', job)).toBe(now.getTime() / 1000);
    const lag = (now.getTime() - periodOf({ everyMs: 60_000 }, now).start.getTime()) / 1000;
    expect(after.value('giftlink_job_lag_seconds', job)).toBeCloseTo(lag, 6);
    expect(after.value('giftlink_job_duration_seconds', job)).toBeGreaterThan(0);
  });

  it('read the payment intents pending, and the PostgreSQL pool, at each scrape', async () => {
    const [user] = await buildUsers(server, 1, 'mep');
    const pending = { kind: 'deposit' };
    const before = (await scrape()).samples.value('giftlink_payment_intents_pending', pending);
    // A deposit asked for and not yet answered by the provider (as a crash would leave it).
    await server.deps.db.transaction((em) => beginDeposit(em, { userId: user.user._id, amountCents: 100, recordId: null }));
    const { samples } = await scrape();
    expect(samples.value('giftlink_payment_intents_pending', pending)).toBe(before + 1);
    expect(samples.has('giftlink_payment_intents_pending', { kind: 'withdrawal' })).toBe(true);
    if (server.deps.db.isPostgres) {
      expect(samples.value('giftlink_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(samples.has('giftlink_db_pool_connections', { state: 'idle' })).toBe(true);
      expect(samples.has('giftlink_db_pool_waiting')).toBe(true);
    } else expect(samples.names()).not.toContain('giftlink_db_pool_connections');
  });

  it('count a transfer once its transaction committed: not when rolled back, once when the group committer ran it again', async () => {
    const [user] = await buildUsers(server, 1, 'mer');
    const deposit = (em: Parameters<typeof transfer>[0]) =>
      transfer(em, { from: SYSTEM_PAYMENTS, to: userAccount(user.user._id), amountCents: 100, kind: 'deposit' });
    const before = (await scrape()).samples;
    // Asked for in one turn: on SQLite one group, which the failing work makes run again, each work in its savepoint.
    const outcomes = await Promise.allSettled([
      server.deps.db.transaction(deposit, { replayable: true }),
      server.deps.db.transaction(
        async (em) => {
          await deposit(em);
          throw new Error('changed its mind');
        },
        { replayable: true },
      ),
      server.deps.db.transaction(deposit, { replayable: true }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const after = (await scrape()).samples;
    expect(moved(before, after)('giftlink_ledger_transfers_total', { kind: 'deposit' })).toBe(2);
    expect(moved(before, after)('giftlink_db_transaction_duration_seconds_count', { outcome: 'failed' })).toBe(1);
  });

  it('are not kept without METRICS_PORT, and never share the public port', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.metricsUrl).toBeUndefined();
      expect(plain.deps.metrics).toBeUndefined();
      expect((await plain.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await plain.close();
    }
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(ConfigError);
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
  });
});
