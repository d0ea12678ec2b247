import { z } from 'zod';
import semver from 'semver';

/**
 * Every variable the server and its commands read, validated with zod: config.ts parses the
 * environment with it, and docs/CONFIG.md is generated from its descriptions.
 */
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** CARD_PAYMENTS_PER_CARD unset (config.ts): a real card's limit, and the sandbox's, whose few test card numbers every user shares. */
export const CARD_PAYMENTS_PER_CARD_DEFAULT = { stripe: 10, sandbox: 1000 } as const;

/** Every variable the server reads, with its default and what it does (docs/CONFIG.md is generated from it). */
export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`development`, `production` or `test`. Outside development every request is logged as a JSON line (development prints a short line for a failed or slow one); production refuses PASSWORD_HASH_COST=test, and PAYMENTS=sandbox unless ALLOW_SANDBOX_PAYMENTS.',
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
  BACKUP_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      "The passphrase `npm run backup` seals DATA_DIR's secrets and signs the manifest with, and `npm run restore` needs; keep it apart from the backups.",
    ),
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
  LINK_JOINS_PER_DAY: z.coerce
    .number()
    .int()
    .min(0)
    .max(100000)
    .default(25)
    .describe("Accounts one person's shared link or wishlist may bring in over any 24 hours (0: visitors need an invite)."),
  JOINS_PER_DAY: z.coerce
    .number()
    .int()
    .min(0)
    .max(10000000)
    .default(2000)
    .describe('Accounts all shared links together may bring in over any 24 hours, against mass sign-ups.'),
  LINK_TTL_HOURS: z.coerce.number().positive().default(24).describe('How long a link stays open; unused escrow goes back afterwards.'),
  FUNDS_HOLD_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(168)
    .describe(
      'How long money from a card payment, or received as a gift, waits before it can be withdrawn (it can be given or spent at once). Decimals allowed; 0 turns the hold off.',
    ),
  SHARE_IMAGES_AT_CREATION: bool
    .default(true)
    .describe("Draws a link's (and a saved wishlist's) share images right after it is made, so the share modal need not wait."),
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
    .describe(
      "The largest accepted picture upload, in bytes. The reference nginx takes bodies up to 6 MiB, the default's picture and its form (`client_max_body_size` in deploy/nginx/giftlink-proxy.conf): raise that with this.",
    ),
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
  CARD_PAYMENTS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .positive()
    .default(10)
    .describe(
      'Card payments (deposits and gifts paid by card) one identity may start per CARD_PAYMENT_WINDOW_SECONDS (a person by name, or their persona for a gift paid in one step); past it a 429.',
    ),
  CARD_PAYMENTS_PER_CARD: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `Card payments one card (the provider's fingerprint of it) may make per CARD_PAYMENT_WINDOW_SECONDS, across accounts. Unset: ${CARD_PAYMENTS_PER_CARD_DEFAULT.stripe} with PAYMENTS=stripe, ${CARD_PAYMENTS_PER_CARD_DEFAULT.sandbox} with PAYMENTS=sandbox (all its users pay with the same few test cards).`,
    ),
  CARD_PAYMENTS_PER_CLIENT: z.coerce
    .number()
    .int()
    .positive()
    .default(20)
    .describe('Card payments one client address may start per CARD_PAYMENT_WINDOW_SECONDS, across accounts.'),
  CARD_PAYMENT_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600).describe('The window of the three card payment limits.'),
  CARD_DECLINES_BEFORE_LOCK: z.coerce
    .number()
    .int()
    .positive()
    .default(5)
    .describe(
      'Declined or blocked cards an identity (a person by name, or their persona for a gift paid in one step) may meet per CARD_DECLINE_WINDOW_SECONDS before its card payments are locked.',
    ),
  CARD_DECLINE_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600).describe('The window of CARD_DECLINES_BEFORE_LOCK.'),
  CARD_LOCK_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(86_400)
    .describe('How long card payments stay locked for an identity after too many declines.'),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(
      'Serves Prometheus metrics at `/metrics` on this port, on a server of its own (never on PORT); unset, no metrics are kept. 0 takes a free port.',
    ),
  METRICS_HOST: z
    .string()
    .default('127.0.0.1')
    .describe(
      "The address the metrics server listens on: this machine only unless told otherwise (the metrics name no user, but say much about the product's traffic).",
    ),
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
  SANDBOX_PAYOUT_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(0)
    .describe(
      "Tests only: the sandbox answers a payout this long after making it, so `npm run crash-test` can kill the server between the provider's answer and the ledger. 0 answers at once.",
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
  STRIPE_CONNECT_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional()
    .describe(
      "PAYMENTS=stripe: the signing secret (whsec_…) of the Connect endpoint /payouts/webhook (connected accounts' `account.updated`, `payout.failed`, `payout.paid`); unset, that endpoint is off, payouts' status is read when the user returns from onboarding and a refused payout is not shown.",
    ),
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
      'Outgoing email (password reset, alerts) through this smtp:// or smtps:// server; unset, each email is written to DATA_DIR/outbox (owner-only .eml files) and printed on the console.',
    ),
  MAIL_FROM: z
    .string()
    .min(3)
    .max(254)
    .optional()
    .describe("The From of outgoing email; `Giftlink <no-reply@{PUBLIC_URL's host}>` when unset."),
  ALERTS_EMAIL: bool
    .default(true)
    .describe(
      'Emails users about gifts, messages, orders, their subscription and security events while they have no tab open (Settings → Notifications turns kinds off).',
    ),
  ALERT_EMAIL_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(30_000)
    .describe(
      'How long an alert waits before its email or push goes (a message read or a tab opened meanwhile spares it); the jobs run every 10 s.',
    ),
  ALERT_EMAIL_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(60_000)
    .describe(
      'How long a claimed alert email or push is left to the process sending it; after a crash it is sent again, as the same email (same Message-ID) or push (same tag), once this has passed.',
    ),
  ALERTS_PUSH: bool
    .default(true)
    .describe('Sends the same alerts as Web Push notifications to the devices a user turned them on for, while they have no tab open.'),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (87 characters)')
    .optional()
    .describe('Web Push: the VAPID public key (with VAPID_PRIVATE_KEY); both generated once into `DATA_DIR/vapid.json` when unset.'),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (43 characters)')
    .optional()
    .describe('Web Push: the VAPID private key that signs each push; set together with VAPID_PUBLIC_KEY.'),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
    .optional()
    .describe(
      "Web Push: who push services may contact about this server's pushes; `mailto:` MAIL_FROM's address or PUBLIC_URL when unset.",
    ),
  PUSH_ALLOW_PRIVATE_ENDPOINTS: bool
    .default(false)
    .describe(
      'Tests only: accepts push endpoints on http:// and on loopback or private addresses (a local push service); refused with NODE_ENV=production.',
    ),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(10_000)
    .describe(
      'On SIGTERM: how long requests in flight may take to finish once the port is closed; past it their connections are cut. Scheduled jobs under way finish, none starts.',
    ),
  SHUTDOWN_DRAIN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(120_000)
    .default(0)
    .describe(
      'On SIGTERM: how long /readyz answers 503 before the port closes, so a load balancer that probes it (Kubernetes, HAProxy, a cloud balancer) stops sending first; a little more than its probe interval times its failure threshold. nginx without probes needs none.',
    ),
  ALLOW_SANDBOX_PAYMENTS: bool
    .default(false)
    .describe('A demonstration: lets NODE_ENV=production run with PAYMENTS=sandbox, whose deposits are free money. Refused without it.'),
  PASSWORD_HASH_COST: z
    .enum(['standard', 'test'])
    .default('standard')
    .describe(
      "argon2id's cost for new password hashes: `standard` (64 MiB, 3 passes) or `test` (the least argon2 allows), refused in production. Hashes of any cost keep verifying.",
    ),
});

export type Env = z.input<typeof configSchema>;
