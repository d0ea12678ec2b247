import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import type { Env } from '../config-schema.js';
import { freshPostgres } from '../db/fresh-postgres.js';
import { createInvite } from '../invites/service.js';
import { startServer, type RunningServer } from '../server.js';
import type { PrivateUser } from '../../contract/users.js';
import { SessionEntity } from '../auth/entity.js';
import { hashPassword } from '../users/passwords.js';
import { newSessionRecord, sessionToken } from '../auth/session.js';
import { UserEntity, newUserRecord, type User } from '../users/entity.js';
import { presentPrivateUser } from '../users/presenter.js';
import { checkViolations, prismCarries, prismEnabled, startPrism } from './prism.js';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Straight to the server even with PRISM=1: for a test of exact transport headers (compression), which a proxy rewrites. */
  direct?: boolean;
}

export interface TestServer extends RunningServer {
  // A test reads answers of every shape, naming the fields it expects (and the Prism run checks
  // each against the published contract); a typed call names its answer's type.
  // oxlint-disable-next-line typescript/no-explicit-any
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
}

/** A desktop Chrome's user agent: what `request` sends unless a test sets its own. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export interface TestServerOptions extends Env {
  /**
   * Another API process of the same product: this server uses `share`'s database (PostgreSQL
   * database or SQLite file in its data directory), JWT secret and Redis prefix, so tokens and
   * socket rooms work across both. The first server owns (and removes) the shared data.
   */
  share?: RunningServer;
}

/**
 * Starts the real server on a free port with its own data directory (and its own PostgreSQL
 * database when DATABASE_URL is set), quiet logs, relaxed auth rate limits and the cheapest password
 * hashes unless overridden.
 * With REDIS_URL set it runs in multi-node mode under a Redis key prefix of its own.
 */
export async function startTestServer({ share, ...overrides }: TestServerOptions = {}): Promise<TestServer> {
  const base = loadConfig();
  const shared = share?.deps.config;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-test-'));
  const database = !shared && base.databaseUrl ? await freshPostgres(base.databaseUrl) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: shared ? shared.databaseUrl : database?.url,
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: 'test',
    AUTH_RATE_LIMIT: '10000',
    API_RATE_LIMIT: '1000000',
    // Every test pays with the same test cards from one address; wallet/card-guard.test.ts sets its own.
    CARD_PAYMENTS_PER_ACCOUNT: '100000',
    CARD_PAYMENTS_PER_CARD: '100000',
    CARD_PAYMENTS_PER_CLIENT: '100000',
    // Drawing every test link's images would cost seconds of CPU; sharing/prerender.test.ts turns it on.
    SHARE_IMAGES_AT_CREATION: 'false',
    // The alert emails' job would write every test's gifts to the outbox folder; alerts/*.test.ts turn it on.
    ALERTS_EMAIL: 'false',
    ALERTS_PUSH: 'false',
    // Tests that withdraw what they just deposited are not about holds; money/holds*.test.ts set one.
    FUNDS_HOLD_HOURS: '0',
    JWT_SECRET: shared?.jwtSecret ?? crypto.randomBytes(32).toString('hex'),
    REDIS_URL: shared ? shared.redisUrl : base.redisUrl,
    REDIS_PREFIX: shared?.redisPrefix ?? `giftlink-test-${crypto.randomBytes(6).toString('hex')}`,
    ...overrides,
  } as Record<string, string | undefined>);
  const server = await startServer(config);
  // PRISM=1: requests go through Stoplight Prism's validation proxy (testing/prism.ts).
  const prism = prismEnabled() ? await startPrism(server.url) : undefined;

  const request = async <T>(method: string, p: string, options: RequestOptions = {}): Promise<Reply<T>> => {
    // A browser's user agent unless the test names one: Node's own ('node') reads as a bot (isbot).
    const headers: Record<string, string> = { 'user-agent': BROWSER_USER_AGENT, ...options.headers };
    if (options.token) headers['x-auth-token'] = options.token;
    let body: RequestInit['body'];
    if (options.body instanceof FormData) body = options.body;
    else if (typeof options.body === 'string') {
      body = options.body;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const viaPrism = prism && !options.direct && prismCarries(body, headers['content-type']);
    const res = await fetch((viaPrism ? prism.url : server.url) + p, { method, headers, body });
    const text = await res.text();
    const replyHeaders = viaPrism ? checkViolations(method, p, res.status, res.headers, text) : res.headers;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: replyHeaders };
  };

  return {
    ...server,
    request,
    close: async () => {
      await prism?.close();
      await server.close();
      if (shared) return;
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new server-made invite code. */
export async function newInviteCode(server: RunningServer): Promise<string> {
  const invite = await server.deps.db.transaction((em) => createInvite(em, null));
  return invite.code;
}

let counter = 0;

/** A date of birth well past the age gate, for every test that registers someone. */
export const ADULT_BIRTH_DATE = '1990-01-01';

export interface TestUser {
  user: PrivateUser;
  token: string;
  password: string;
}

/** Registers a user through the API and answers its session. */
export async function buildUser(
  server: TestServer,
  fields: Partial<{ username: string; email: string; password: string }> = {},
): Promise<TestUser> {
  counter += 1;
  const suffix = `${process.pid % 1000}${counter}`;
  const password = fields.password ?? 'secret-pass';
  const res = await server.request<{ token: string; user: PrivateUser }>('POST', '/api/auth/register', {
    body: {
      username: fields.username ?? `user${suffix}`,
      email: fields.email ?? `user${suffix}@example.com`,
      password,
      dateOfBirth: ADULT_BIRTH_DATE,
      inviteCode: await newInviteCode(server),
    },
  });
  if (res.status !== 201) throw new Error(`buildUser failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user: res.body.user, token: res.body.token, password };
}

const sharedHashes = new Map<string, Promise<string>>();

/**
 * Many users at once, written straight to the database with one shared password hash and a real
 * session each (registration through HTTP costs an argon2 hash each). Their password is
 * 'secret-pass'.
 */
export async function buildUsers(server: TestServer, count: number, prefix = 'bulk'): Promise<TestUser[]> {
  const cost = server.deps.config.passwordHash;
  const key = `${cost.memoryCost}/${cost.timeCost}/${cost.parallelism}`;
  if (!sharedHashes.has(key)) sharedHashes.set(key, hashPassword('secret-pass', cost));
  const passwordHash = await sharedHashes.get(key)!;
  const users: User[] = Array.from({ length: count }, () => {
    counter += 1;
    const name = `${prefix}${process.pid % 1000}${counter}`.slice(0, 15);
    return newUserRecord({ username: name, email: `${name}@example.com`, passwordHash, adult: true, birthYear: 1990 });
  });
  const ttlHours = server.deps.config.tokenTtlHours;
  const sessions = users.map((u) => newSessionRecord(u.id, { ttlHours, userAgent: 'buildUsers' }));
  // insert copies: TypeORM writes re-read values back into the objects it is given
  await server.deps.db.transaction(async (em) => {
    await em.insert(
      UserEntity,
      users.map((u) => ({ ...u })),
    );
    await em.insert(
      SessionEntity,
      sessions.map((s) => ({ ...s })),
    );
  });
  return Promise.all(
    users.map(async (u, i) => ({
      user: presentPrivateUser(u),
      token: await sessionToken(server.deps.tokens, sessions[i]),
      password: 'secret-pass',
    })),
  );
}

/** Puts sandbox money in a user's balance through the API. */
export async function depositFor(server: TestServer, who: TestUser, dollars: number): Promise<void> {
  const res = await server.request('POST', '/api/billing-settings-deposit', { token: who.token, body: { balance: dollars } });
  if (res.status !== 200) throw new Error(`deposit failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** `giver` gives `dollars` from their balance to a new receive link of `recipient`'s (anonymously); answers the thread, throwing unless it landed. */
export async function giveToNewLink(server: TestServer, giver: TestUser, recipient: TestUser, dollars: number): Promise<string> {
  const link = await server.request<{ id: string }>('POST', '/links/create', {
    token: recipient.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: dollars, quantity: 1 } },
  });
  if (link.status !== 201) throw new Error(`link failed: ${link.status} ${JSON.stringify(link.body)}`);
  const give = await server.request<{ conversationId: string }>('POST', '/statuses/api/gives', {
    token: giver.token,
    body: { postId: link.body.id, amount: dollars },
  });
  if (give.status !== 201) throw new Error(`give failed: ${give.status} ${JSON.stringify(give.body)}`);
  return give.body.conversationId;
}

/** The user's balance in dollars, as the API reports it. */
export async function balanceOfUser(server: TestServer, who: TestUser): Promise<number> {
  const res = await server.request<{ balance: number }>('GET', '/api/billing-settings-balance', { token: who.token });
  return res.body.balance;
}

/**
 * Everything `who` can fetch, as raw text (bodies and headers): the given calls, then their
 * notifications, every conversation with its messages, their unread count, /me, their money
 * history (JSON and CSV), their orders and their data export. The
 * anonymity tests scan it for the giver's id, username and email.
 */
export async function everythingVisibleTo(
  server: TestServer,
  who: TestUser,
  calls: [method: string, path: string, body?: unknown][],
): Promise<string> {
  const id = who.user._id;
  const seen: string[] = [];
  const fetchAs = async (method: string, p: string, body?: unknown) => {
    const res = await server.request(method, p, { token: who.token, body });
    seen.push(`${method} ${p} ${JSON.stringify(res.body)} ${JSON.stringify([...res.headers])}`);
    return res.body;
  };
  for (const [method, p, body] of calls) await fetchAs(method, p, body);
  await fetchAs('GET', `/api/notifications/${id}`);
  const conversations = (await fetchAs('GET', `/conversations/${id}`)) as { _id: string }[];
  for (const c of conversations) {
    await fetchAs('GET', `/conversations/find/${c._id}`);
    await fetchAs('GET', `/messages/${c._id}?page=1`);
  }
  await fetchAs('GET', `/messages/unread?userId=${id}`);
  await fetchAs('GET', '/api/auth/me');
  await fetchAs('GET', '/api/wallet/history?limit=100');
  await fetchAs('GET', '/api/wallet/history.csv');
  await fetchAs('GET', '/api/orders');
  await fetchAs('GET', '/api/account/export');
  return seen.join('\n');
}

/** Stripe's test bank account that pays out (PAYMENTS=sandbox): what `readyPayoutsFor` sets up. */
export const TEST_BANK = { routingNumber: '110000000', accountNumber: '000123456789' };

/** Sets up the user's payouts in the sandbox through the API, so their withdrawals can go out. */
export async function readyPayoutsFor(server: TestServer, who: TestUser, bank = TEST_BANK): Promise<void> {
  const res = await server.request('POST', '/api/payouts/sandbox/complete', { token: who.token, body: bank });
  if (res.status !== 200 || res.body.status !== 'ready') throw new Error(`payouts setup failed: ${res.status} ${JSON.stringify(res.body)}`);
}
