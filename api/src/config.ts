import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { CARD_PAYMENTS_PER_CARD_DEFAULT, configSchema } from './config-schema.js';

/**
 * The only reader of process.env (and of the optional .env file). Parsed and validated once at
 * start-up; a bad value stops start-up with a message naming the variable.
 */

export interface CardSafetyConfig {
  perAccount: number;
  perCard: number;
  perClient: number;
  windowSeconds: number;
  declinesBeforeLock: number;
  declineWindowSeconds: number;
  lockSeconds: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  /**
   * What others see of presence (realtime/presence.ts `shownOnline`): online only once a socket has
   * been open this long, and until this long after the last one closed, so a short visit never shows.
   */
  presenceSettleSeconds: number;
  jwtSecret?: string;
  /** BACKUP_KEY: seals a backup's secrets and signs its manifest (backup/manifest.ts). */
  backupKey?: string;
  tokenTtlHours: number;
  cookieSecure: boolean;
  /** Behind a load balancer: take the client address from X-Forwarded-For (rate limits count per client). */
  trustProxy: boolean;
  /**
   * With trustProxy: how many proxies append to X-Forwarded-For. The client address is the entry
   * that many from the right (Koa's maxIpsCount), never a leftmost entry a client could make up.
   */
  trustProxyHops: number;
  invitesPerUser: number;
  /** An account regains one invite every this many days, up to invitesPerUser unused ones (invites/refill.ts). */
  inviteRefillDays: number;
  /** Accounts one person's shared link or wishlist may bring in over any 24 hours (invites/join.ts). */
  linkJoinsPerDay: number;
  /** Accounts all shared links together may bring in over any 24 hours. */
  joinsPerDay: number;
  linkTtlHours: number;
  /** How long card money and gifts received wait before they can be withdrawn (money/holds.ts); 0: no hold. */
  fundsHoldHours: number;
  /** Share images are drawn right after a link is created or a wishlist saved (sharing/prerender.ts). */
  shareImagesAtCreation: boolean;
  /** The sandbox marketplace's schedule (orders/sandbox.ts): placed → shipped, then shipped → delivered. */
  orderShipAfterMinutes: number;
  orderDeliverAfterMinutes: number;
  uploadMaxBytes: number;
  bodyLimit: string;
  authRateLimit: number;
  authRateWindowSeconds: number;
  /** Requests per client (user, else address) per window on every API route; some routes have tighter ones. */
  apiRateLimit: number;
  apiRateWindowSeconds: number;
  /** Messages one user may send a minute (HTTP and socket together); a sixth of it in any 5 seconds. */
  messageRateLimit: number;
  /** Limits against card testing (wallet/card-guard.ts): payments per account, card and client, and a lock after declines. */
  cardSafety: CardSafetyConfig;
  logLevel: string;
  /** Prometheus metrics at /metrics on a server of their own (metrics/serve.ts); unset, none are kept. */
  metricsPort?: number;
  metricsHost: string;
  webDir: string;
  communityInviteUrl?: string;
  /** The payments provider (payments/provider.ts); `sandbox` is the embedded, offline one. */
  payments: 'sandbox' | 'stripe';
  /** Tests only: how long the sandbox waits between making a payout and answering it (payments/sandbox.ts). */
  sandboxPayoutDelayMs: number;
  /** Set when PAYMENTS=stripe, or when STRIPE_SECRET_KEY is set (for `npm run stripe:setup`). */
  stripe?: StripeConfig;
  catalog: 'embedded' | 'ebay';
  /** The embedded catalogue: products.json and images/. */
  catalogDir: string;
  /** Set when CATALOG=ebay. */
  ebay?: EbayConfig;
  /** Origins allowed to call the API cross-origin, without credentials (http/cors.ts). */
  corsOrigins: string[];
  /** The oldest desktop app version the API still serves (http/version.ts). */
  minDesktopVersion: string;
  /** Where an outdated desktop app sends its user. */
  desktopDownloadUrl: string;
  /** Outgoing email through this SMTP server (mail/mailer.ts); unset → the outbox in DATA_DIR. */
  smtpUrl?: string;
  mailFrom: string;
  /** Alerts by email while the user has no tab open (alerts/job.ts), each after this delay. */
  alertsEmail: boolean;
  alertEmailDelayMs: number;
  /** A claimed batch's lease (alerts/job.ts): another run leaves it alone until then. */
  alertEmailLeaseMs: number;
  alertsPush: boolean;
  /** Web Push's VAPID keys from the environment; unset: generated into DATA_DIR (push/vapid.ts). */
  vapid?: { publicKey: string; privateKey: string };
  vapidSubject?: string;
  /** Tests only: push endpoints on http:// and private addresses are accepted (push/endpoint.ts). */
  pushAllowPrivateEndpoints: boolean;
  /** On SIGTERM: how long requests in flight get once the port is closed (server.ts `close`). */
  shutdownGraceMs: number;
  /** On SIGTERM: how long /readyz answers 503 before the port closes, for a load balancer's probes. */
  shutdownDrainDelayMs: number;
  /** argon2id's memory (KiB), passes and lanes for new hashes (users/passwords.ts); a hash keeps its own for verifying. */
  passwordHash: PasswordHashCost;
}

export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** argon2's own defaults (64 MiB, 3 passes, 4 lanes), and the least it accepts, for tests. */
export const PASSWORD_HASH_COSTS = {
  standard: { memoryCost: 65_536, timeCost: 3, parallelism: 4 },
  test: { memoryCost: 8, timeCost: 1, parallelism: 1 },
} as const satisfies Record<string, PasswordHashCost>;

export interface EbayConfig {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  oauthUrl: string;
  marketplaceId: string;
}

/** Stripe (PAYMENTS=stripe): with PAYMENTS=stripe every field but `api` is required at start-up. */
export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  priceId: string;
  webhookSecret: string;
  /** The Connect endpoint's signing secret (STRIPE_CONNECT_WEBHOOK_SECRET); empty turns that endpoint off. */
  connectWebhookSecret: string;
  /** Another API host for tests (STRIPE_API_BASE); unset → Stripe's own. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

export class ConfigError extends Error {}

const STRIPE_REQUIRED = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET'] as const;

function stripeConfig(e: z.output<typeof configSchema>): StripeConfig | undefined {
  if (e.PAYMENTS === 'stripe') {
    for (const name of STRIPE_REQUIRED)
      if (!e[name]) throw new ConfigError(`Invalid configuration: ${name} is required when PAYMENTS=stripe`);
  } else if (!e.STRIPE_SECRET_KEY) return undefined;
  let api: StripeConfig['api'];
  if (e.STRIPE_API_BASE) {
    const url = new URL(e.STRIPE_API_BASE);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443), protocol };
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY ?? '',
    publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? '',
    priceId: e.STRIPE_PRICE_ID ?? '',
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
    connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET ?? '',
    api,
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.CATALOG === 'ebay') {
    for (const name of ['EBAY_CLIENT_ID', 'EBAY_CLIENT_SECRET'] as const)
      if (!e[name]) throw new ConfigError(`Invalid configuration: ${name} is required when CATALOG=ebay`);
  }
  if (e.PASSWORD_HASH_COST === 'test' && e.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration: PASSWORD_HASH_COST=test is for tests only and refused with NODE_ENV=production');
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY)
    throw new ConfigError('Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
  if (e.PUSH_ALLOW_PRIVATE_ENDPOINTS && e.NODE_ENV === 'production')
    throw new ConfigError('Invalid configuration: PUSH_ALLOW_PRIVATE_ENDPOINTS is for tests only and refused with NODE_ENV=production');
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError('Invalid configuration: METRICS_PORT must differ from PORT (the metrics are never served on the public port)');
  if (e.PAYMENTS === 'sandbox' && e.NODE_ENV === 'production' && !e.ALLOW_SANDBOX_PAYMENTS)
    throw new ConfigError(
      'Invalid configuration: PAYMENTS=sandbox is refused with NODE_ENV=production: its deposits are free money. Set PAYMENTS=stripe, or ALLOW_SANDBOX_PAYMENTS=true for a demonstration.',
    );
  const ebayBase = e.EBAY_API_BASE.replace(/\/$/, '');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    presenceSettleSeconds: e.PRESENCE_SETTLE_SECONDS,
    jwtSecret: e.JWT_SECRET,
    backupKey: e.BACKUP_KEY,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    cookieSecure: e.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    trustProxy: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    invitesPerUser: e.INVITES_PER_USER,
    inviteRefillDays: e.INVITE_REFILL_DAYS,
    linkJoinsPerDay: e.LINK_JOINS_PER_DAY,
    joinsPerDay: e.JOINS_PER_DAY,
    linkTtlHours: e.LINK_TTL_HOURS,
    fundsHoldHours: e.FUNDS_HOLD_HOURS,
    shareImagesAtCreation: e.SHARE_IMAGES_AT_CREATION,
    orderShipAfterMinutes: e.ORDER_SHIP_AFTER_MINUTES,
    orderDeliverAfterMinutes: e.ORDER_DELIVER_AFTER_MINUTES,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    bodyLimit: e.BODY_LIMIT,
    authRateLimit: e.AUTH_RATE_LIMIT,
    authRateWindowSeconds: e.AUTH_RATE_WINDOW_SECONDS,
    apiRateLimit: e.API_RATE_LIMIT,
    apiRateWindowSeconds: e.API_RATE_WINDOW_SECONDS,
    messageRateLimit: e.MESSAGE_RATE_LIMIT,
    cardSafety: {
      perAccount: e.CARD_PAYMENTS_PER_ACCOUNT,
      perCard: e.CARD_PAYMENTS_PER_CARD ?? CARD_PAYMENTS_PER_CARD_DEFAULT[e.PAYMENTS],
      perClient: e.CARD_PAYMENTS_PER_CLIENT,
      windowSeconds: e.CARD_PAYMENT_WINDOW_SECONDS,
      declinesBeforeLock: e.CARD_DECLINES_BEFORE_LOCK,
      declineWindowSeconds: e.CARD_DECLINE_WINDOW_SECONDS,
      lockSeconds: e.CARD_LOCK_SECONDS,
    },
    logLevel: e.LOG_LEVEL,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    webDir: path.resolve(e.WEB_DIR),
    communityInviteUrl: e.COMMUNITY_INVITE_URL,
    payments: e.PAYMENTS,
    sandboxPayoutDelayMs: e.SANDBOX_PAYOUT_DELAY_MS,
    stripe: stripeConfig(e),
    catalog: e.CATALOG,
    catalogDir: path.resolve(e.CATALOG_DIR),
    ebay:
      e.CATALOG === 'ebay'
        ? {
            clientId: e.EBAY_CLIENT_ID ?? '',
            clientSecret: e.EBAY_CLIENT_SECRET ?? '',
            apiBase: ebayBase,
            oauthUrl: e.EBAY_OAUTH_URL ?? `${ebayBase}/identity/v1/oauth2/token`,
            marketplaceId: e.EBAY_MARKETPLACE_ID,
          }
        : undefined,
    corsOrigins: corsOrigins(e.CORS_ORIGINS),
    minDesktopVersion: e.MIN_DESKTOP_VERSION,
    desktopDownloadUrl: e.DESKTOP_DOWNLOAD_URL ?? publicUrl,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Giftlink <no-reply@${new URL(publicUrl).hostname}>`,
    alertsEmail: e.ALERTS_EMAIL,
    alertEmailDelayMs: e.ALERT_EMAIL_DELAY_MS,
    alertEmailLeaseMs: e.ALERT_EMAIL_LEASE_MS,
    alertsPush: e.ALERTS_PUSH,
    vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
    vapidSubject: e.VAPID_SUBJECT,
    pushAllowPrivateEndpoints: e.PUSH_ALLOW_PRIVATE_ENDPOINTS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainDelayMs: e.SHUTDOWN_DRAIN_DELAY_MS,
    passwordHash: PASSWORD_HASH_COSTS[e.PASSWORD_HASH_COST],
  };
}

/**
 * What `npm start`, `npm run invite` and `npm run moderation` configure themselves from: the
 * environment over the optional `.env` file in the working directory (the project root under npm),
 * so the server and its commands read one configuration. A variable set in the environment wins,
 * even set empty (unset for the configuration). ENV_FILE names another file; ENV_FILE= reads none.
 */
export function environment(): Record<string, string | undefined> {
  const file = process.env.ENV_FILE ?? '.env';
  if (!file) return { ...process.env };
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && process.env.ENV_FILE === undefined) return { ...process.env };
    throw new ConfigError(`Invalid configuration: cannot read ${file} (${(err as Error).message})`);
  }
  return { ...parseEnv(text), ...process.env };
}

/** CORS_ORIGINS: each entry an origin (`scheme://host[:port]`), no path, no wildcard. */
function corsOrigins(value: string): string[] {
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !parsed.host || `${parsed.protocol}//${parsed.host}` !== origin)
      throw new ConfigError(`Invalid configuration: CORS_ORIGINS must list origins such as app://giftlink (got ${origin})`);
  }
  return origins;
}
