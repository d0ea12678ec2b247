import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from './app.js';
import { Tokens, resolveSecret } from './auth/tokens.js';
import type { Config } from './config.js';
import { openDatabase } from './db/index.js';
import { openCatalog } from './catalog/service.js';
import type { Deps } from './deps.js';
import { answerClientErrors } from './http/client-error.js';
import { RateLimits } from './limits/rate-limits.js';
import { sweepExpiredLinks } from './links/expiry.js';
import { orderDeps, sweepOrders } from './orders/service.js';
import { Realtime } from './realtime/hub.js';
import { registerSocketHandlers } from './realtime/socket.js';

export interface RunningServer {
  deps: Deps;
  http: http.Server;
  url: string;
  close(): Promise<void>;
}

/** Opens the database (running migrations), assembles the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const log = pino({ level: config.logLevel, base: undefined });
  const db = await openDatabase(config);
  const realtime = await Realtime.create(config, log);
  const deps: Deps = {
    config,
    db,
    log,
    tokens: new Tokens(resolveSecret(config)),
    catalog: await openCatalog(config, db, log),
    realtime,
    limits: new RateLimits(realtime.sharedStore),
  };
  const app = createApp(deps);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  // socket.io shares the API's HTTP server (same port and origin, path /socket.io).
  registerSocketHandlers(deps.realtime.attach(server, deps), deps, deps.realtime);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  // Expired links give their unused escrow back; safe when several processes sweep at once.
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweepTimer = setInterval(() => {
    sweeping = sweepExpiredLinks(db)
      .then(() => db.optimize())
      .catch((err: unknown) => log.error({ err }, 'link sweep failed'))
      // Item orders: waiting ones past 14 days go back to their givers; the marketplace moves the rest on.
      .then(() => sweepOrders(orderDeps(deps)))
      .catch((err: unknown) => log.error({ err }, 'order sweep failed'));
  }, 60_000);
  sweepTimer.unref();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweepTimer);
      await sweeping;
      await deps.realtime.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await db.close();
    })());

  return { deps, http: server, url: `http://${host}:${port}`, close };
}
