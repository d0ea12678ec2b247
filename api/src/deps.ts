import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import type { Tokens } from './auth/tokens.js';
import type { Catalog } from './catalog/catalog.js';
import type { Realtime } from './realtime/hub.js';
import type { RateLimits } from './limits/rate-limits.js';
import type { PaymentsProvider } from './payments/provider.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './metrics/metrics.js';
import type { Readiness } from './http/ready.js';

/** What the app is assembled from; built once in server.ts (and by the tests through it). */
export interface Deps {
  config: Config;
  db: Database;
  log: Logger;
  tokens: Tokens;
  /** The marketplace catalogue (embedded or eBay), see catalog/catalog.ts. */
  catalog: Catalog;
  /**
   * socket.io, presence and the publisher services call after their transactions commit
   * (`deps.realtime.publish([...])`, see realtime/publisher.ts).
   */
  realtime: Realtime;
  /** Rate limits, counted in Redis in multi-node mode so they hold across processes. */
  limits: RateLimits;
  /** The payments provider (sandbox or Stripe, from PAYMENTS; payments/provider.ts): deposits, withdrawals and the subscription. */
  payments: PaymentsProvider;
  /** The time now: subscription periods and renewals read it (tests move it forward instead of sleeping). */
  clock: () => Date;
  /** Outgoing email: SMTP (SMTP_URL) or the outbox in DATA_DIR (mail/mailer.ts). */
  mailer: Mailer;
  /** Prometheus metrics, kept only when METRICS_PORT is set (metrics/metrics.ts). */
  metrics?: Metrics;
  /** Whether this process should get traffic (/readyz): starting, serving, draining, dependencies answering. */
  readiness: Readiness;
}
