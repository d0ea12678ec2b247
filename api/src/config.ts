import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import semver from 'semver';

/**
 * The only reader of process.env (and of the optional .env file). Parsed and validated once at
 * start-up; a bad value stops start-up with a message naming the variable.
 */
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every variable the server reads, with its default and what it does (docs/CONFIG.md is generated from it). */
export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`development`, `production` or `test`. Outside development every request is logged as a JSON line (development prints a short line for a failed or slow one); production refuses PASSWORD_HASH_COST=test.',
    ),
  HOST: z.string().default('0.0.0.0').describe('The address the server listens on.'),
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(3000)
    .describe('The port the server listens on (API, socket.io and the website).'),
  PUBLIC_URL: z
    .url()
    .optional()
    .describe('The base of invite and share URLs; `http://localhost:$PORT` when unset. An https URL makes cookies Secure.'),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe('The SQLite database, uploaded pictures, the generated JWT secret and the mail outbox, all owner-only.'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .describe('A `postgres://` URL switches from the embedded SQLite file to PostgreSQL.'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .describe(
      'Multi-node mode: the socket.io Redis adapter, presence and rate limits in Redis, so several API processes serve one product.',
    ),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be 1-64 letters, digits or . : _ -')
    .default('giftlink')
    .describe('Prefix of every Redis key and channel (presence, socket.io adapter): one per deployment.'),
  PRESENCE_SETTLE_SECONDS: z.coerce
    .number()
    .positive()
    .max(3600)
    .default(60)
    .describe('Presence shown to others: online once a socket has been open this long, and for this long after the last one closed.'),
  JWT_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe('Signs session tokens; generated once into `DATA_DIR/jwt-secret` when unset.'),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7)
    .describe('How long a session (its token, cookie and sockets) lasts from sign-in; logout or a password change ends it sooner.'),
  COOKIE_SECURE: bool.optional().describe('Marks the session cookie Secure and sends HSTS; true when PUBLIC_URL is https.'),
  TRUST_PROXY: bool
    .default(false)
    .describe('Behind a load balancer: take the client address from X-Forwarded-For (rate limits count per client).'),
  TRUST_PROXY_HOPS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10)
    .default(1)
    .describe('Proxies in front of the API that append to X-Forwarded-For: the client is that many entries from the right.'),
  INVITES_PER_USER: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .default(3)
    .describe('Invites each new account receives, and the most unused ones a refill brings back.'),
  INVITE_REFILL_DAYS: z.coerce
    .number()
    .positive()
    .max(3650)
    .default(7)
    .describe('An account regains one invite every this many days, up to INVITES_PER_USER unused ones.'),
  LINK_TTL_HOURS: z.coerce.number().positive().default(24).describe('How long a link stays open; unused escrow goes back afterwards.'),
  ORDER_SHIP_AFTER_MINUTES: z.coerce
    .number()
    .min(0)
    .max(525_600)
    .default(60)
    .describe('The sandbox marketplace ships a placed item order this many minutes after it was placed.'),
  ORDER_DELIVER_AFTER_MINUTES: z.coerce
    .number()
    .min(0)
    .max(525_600)
    .default(2880)
    .describe('The sandbox marketplace delivers a shipped order this many minutes after it shipped.'),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('The largest accepted picture upload, in bytes.'),
  BODY_LIMIT: z.string().default('100kb').describe('The largest accepted JSON request body.'),
  AUTH_RATE_LIMIT: z.coerce.number().int().positive().default(10).describe('Login and registration attempts per client per window.'),
  AUTH_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60).describe('The window of AUTH_RATE_LIMIT.'),
  API_RATE_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(600)
    .describe(
      'Requests per client (the signed-in user, else the address) per window on every API route; past it a 429 with Retry-After. Uploads get a sixtieth of it, catalogue search, link-page opens and share images a tenth.',
    ),
  API_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60).describe('The window of API_RATE_LIMIT.'),
  MESSAGE_RATE_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(60)
    .describe('Messages one user may send a minute, over HTTP and the socket together; a sixth of it in any 5 seconds.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe("pino's log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`."),
  WEB_DIR: z.string().default('./dist/web').describe('The built website the server serves.'),
  COMMUNITY_INVITE_URL: z.url().optional().describe("The subscribers' private community server, shown to subscribers only."),
  PAYMENTS: z
    .enum(['sandbox', 'stripe'])
    .default('sandbox')
    .describe(
      'The payments provider for deposits, withdrawals and the subscription: `sandbox` (offline test money and test cards) or `stripe`.',
    ),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional()
    .describe('PAYMENTS=stripe: the secret key (sk_test_… or sk_live_…).'),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_/, 'must be a Stripe publishable key (pk_…)')
    .optional()
    .describe("PAYMENTS=stripe: the publishable key the subscription page's Stripe Elements uses."),
  STRIPE_PRICE_ID: z
    .string()
    .regex(/^price_/, 'must be a Stripe price id (price_…)')
    .optional()
    .describe('PAYMENTS=stripe: the weekly $1.99 Price (`npm run stripe:setup` prints it).'),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional()
    .describe('PAYMENTS=stripe: the signing secret (whsec_…) of the endpoint /subscriptions/webhook.'),
  STRIPE_API_BASE: z.url().optional().describe('Tests only: another API host (http://127.0.0.1:PORT) in place of https://api.stripe.com.'),
  CATALOG: z
    .enum(['embedded', 'ebay'])
    .default('embedded')
    .describe(
      'The marketplace catalogue: `embedded` (shipped in resources/catalog) or `ebay` (Browse API; needs EBAY_CLIENT_ID and EBAY_CLIENT_SECRET).',
    ),
  CATALOG_DIR: z.string().default('./resources/catalog').describe("The embedded catalogue's folder: products.json and images/."),
  EBAY_CLIENT_ID: z.string().optional().describe("CATALOG=ebay: the eBay application's client id."),
  EBAY_CLIENT_SECRET: z.string().optional().describe("CATALOG=ebay: the eBay application's client secret."),
  EBAY_API_BASE: z.url().default('https://api.ebay.com').describe("CATALOG=ebay: the Browse API's host."),
  EBAY_OAUTH_URL: z.url().optional().describe('CATALOG=ebay: the OAuth token URL; `{EBAY_API_BASE}/identity/v1/oauth2/token` when unset.'),
  EBAY_MARKETPLACE_ID: z
    .string()
    .regex(/^EBAY_[A-Z_]+$/, 'must be an eBay marketplace id such as EBAY_US')
    .default('EBAY_US')
    .describe('CATALOG=ebay: the marketplace searched.'),
  CORS_ORIGINS: z
    .string()
    .default('app://giftlink')
    .describe(
      "Web origins other than our own that may call the API, without credentials (the desktop app's `app://giftlink`), comma-separated.",
    ),
  MIN_DESKTOP_VERSION: z
    .string()
    .refine((v) => semver.valid(v) !== null, 'must be a version such as 0.1.0')
    .default('0.1.0')
    .describe('Desktop apps older than this (their `x-giftlink-version`) get 426 upgrade_required.'),
  DESKTOP_DOWNLOAD_URL: z.url().optional().describe('Where a desktop app told to update downloads the new one; PUBLIC_URL when unset.'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .describe(
      'Outgoing email (password reset) through this smtp:// or smtps:// server; unset, each email is written to DATA_DIR/outbox (owner-only .eml files) and printed on the console.',
    ),
  MAIL_FROM: z
    .string()
    .min(3)
    .max(254)
    .optional()
    .describe("The From of outgoing email; `Giftlink <no-reply@{PUBLIC_URL's host}>` when unset."),
  PASSWORD_HASH_COST: z
    .enum(['standard', 'test'])
    .default('standard')
    .describe(
      "argon2id's cost for new password hashes: `standard` (64 MiB, 3 passes) or `test` (the least argon2 allows), refused in production. Hashes of any cost keep verifying.",
    ),
});

export type Env = z.input<typeof configSchema>;

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
  linkTtlHours: number;
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
  logLevel: string;
  webDir: string;
  communityInviteUrl?: string;
  /** The payments provider (payments/provider.ts); `sandbox` is the embedded, offline one. */
  payments: 'sandbox' | 'stripe';
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
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    cookieSecure: e.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    trustProxy: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    invitesPerUser: e.INVITES_PER_USER,
    inviteRefillDays: e.INVITE_REFILL_DAYS,
    linkTtlHours: e.LINK_TTL_HOURS,
    orderShipAfterMinutes: e.ORDER_SHIP_AFTER_MINUTES,
    orderDeliverAfterMinutes: e.ORDER_DELIVER_AFTER_MINUTES,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    bodyLimit: e.BODY_LIMIT,
    authRateLimit: e.AUTH_RATE_LIMIT,
    authRateWindowSeconds: e.AUTH_RATE_WINDOW_SECONDS,
    apiRateLimit: e.API_RATE_LIMIT,
    apiRateWindowSeconds: e.API_RATE_WINDOW_SECONDS,
    messageRateLimit: e.MESSAGE_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
    webDir: path.resolve(e.WEB_DIR),
    communityInviteUrl: e.COMMUNITY_INVITE_URL,
    payments: e.PAYMENTS,
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
