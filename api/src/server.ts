import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo, Socket } from 'node:net';
import pino from 'pino';
import { createApp } from './app.js';
import { Tokens, resolveSecret } from './auth/tokens.js';
import type { Config } from './config.js';
import { openDatabase } from './db/index.js';
import { schema } from './schema.js';
import { recordServer, writerInstanceId } from './db/instance.js';
import { Readiness } from './http/ready.js';
import { openCatalog } from './catalog/service.js';
import type { Deps } from './deps.js';
import { answerClientErrors } from './http/client-error.js';
import { RateLimits } from './limits/rate-limits.js';
import { createScheduler } from './jobs/jobs.js';
import { Realtime } from './realtime/hub.js';
import type { RealtimeEvent } from './realtime/publisher.js';
import { registerSocketHandlers } from './realtime/socket.js';
import { REVOKED_SOCKETS_SWEEP_MS, closeRevokedSockets } from './moderation/service.js';
import { pendingIntentCounts, resolvePendingPayments } from './wallet/intents.js';
import { createPaymentsProvider } from './payments/create.js';
import { createMailer } from './mail/mailer.js';
import { Metrics } from './metrics/metrics.js';
import { setHoldPolicy } from './money/holds.js';
import { serveMetrics, type MetricsServer } from './metrics/serve.js';

export interface RunningServer {
  deps: Deps;
  http: http.Server;
  url: string;
  /** The metrics' address (METRICS_PORT set), e.g. http://127.0.0.1:9464/metrics. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** Opens the database (running migrations), assembles the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = pino({ level: config.logLevel, base: undefined });
  const metrics = config.metricsPort === undefined ? undefined : new Metrics();
  const db = await openDatabase(config, schema, metrics);
  await recordServer(db, config.publicUrl);
  const realtime = await Realtime.create(config, log, metrics);
  // What a committed transaction told (realtime/publisher.ts `afterCommit`), and whoever's money it moved hears their new balance.
  db.onCommitted = ({ published, balances }) =>
    realtime.publish([...(published as RealtimeEvent[]), ...(balances.length ? [{ type: 'balance' as const, userIds: balances }] : [])]);
  const deps: Deps = {
    config,
    db,
    log,
    tokens: new Tokens(resolveSecret(config)),
    catalog: await openCatalog(config, db, log),
    realtime,
    limits: new RateLimits(realtime.sharedStore),
    // Read through deps, so a test that moves `deps.clock` moves the sandbox's clock too.
    payments: createPaymentsProvider(config, db, () => deps.clock()),
    clock: () => new Date(),
    mailer: createMailer(config, log),
    metrics,
    readiness: new Readiness({
      database: () => writerInstanceId(db),
      redis: realtime.multiNode ? () => realtime.pingRedis() : undefined,
    }),
  };
  // Every transfer on this database holds card money and gifts for FUNDS_HOLD_HOURS, on the app's clock.
  setHoldPolicy(db, { holdMs: config.fundsHoldHours * 3_600_000, clock: () => deps.clock() });
  const app = createApp(deps);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // socket.io shares the API's HTTP server (same port and origin, path /socket.io).
  const io = deps.realtime.attach(server, deps);
  registerSocketHandlers(io, deps, deps.realtime);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  // Metrics on a port of their own (METRICS_PORT), never the public one.
  let metricsServer: MetricsServer | undefined;
  if (metrics)
    metricsServer = await serveMetrics(
      metrics,
      config,
      { db, sockets: () => io.of('/').sockets.size, pendingPayments: () => pendingIntentCounts(db) },
      log,
    );

  // Scheduled jobs (link expiry, order sweep, pending payments, …; jobs/jobs.ts): each runs once
  // per period across all API processes. Payments a crash left pending are settled at start-up too.
  const { payments } = deps;
  const recovering = resolvePendingPayments({ db, payments, log }, deps.clock()).catch((err: unknown) =>
    log.error({ err }, 'pending payments recovery failed'),
  );
  const scheduler = createScheduler(deps, payments);
  scheduler.start();
  // This process's sockets of sessions revoked by another process (a suspension from `npm run moderation`) close.
  const socketSweep = setInterval(() => {
    io.local
      .fetchSockets()
      .then((sockets) => closeRevokedSockets(db, sockets))
      .catch((err: unknown) => log.error({ err }, 'revoked sockets sweep failed'));
  }, REVOKED_SOCKETS_SWEEP_MS);
  socketSweep.unref();

  deps.readiness.serving();

  // Shutting down (SIGTERM, main.ts): not ready at once; after the drain delay the port closes,
  // sockets are asked to reconnect elsewhere, requests in flight and a job period under way finish
  // (the requests within the grace), then Redis and, last, the database close.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      deps.readiness.drain();
      const jobs = scheduler.stop();
      clearInterval(socketSweep);
      await sleep(config.shutdownDrainDelayMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection is closed as soon as its last answer went (an answer already under way could not say so).
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      deps.realtime.reconnectClients();
      // Past the grace every connection is cut, an upgraded one (a socket whose client is gone) too.
      const grace = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of connections) socket.destroy();
      }, config.shutdownGraceMs);
      await closed;
      clearTimeout(grace);
      clearInterval(idle);
      await jobs;
      // Scraped while draining too; closed before the database its gauges read.
      await metricsServer?.close();
      await recovering;
      await deps.realtime.close();
      deps.mailer.close();
      await db.close();
    })());

  return { deps, http: server, url: `http://${host}:${port}`, metricsUrl: metricsServer?.url, close };
}
