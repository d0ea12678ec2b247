import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { maySeePresence } from '../conversations/service.js';
import type { Database } from '../db/index.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { MemoryPresence, RedisPresence, type Presence } from './presence.js';
import { connectRedis } from './redis.js';
import { buildConversation, connectClient, giveGift, settle } from './testing.js';

const SETTLE_MS = 1000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PRESENCE_SETTLE_SECONDS: String(SETTLE_MS / 1000) });
});
afterAll(() => server?.close());

const presence = async (asker: TestUser, target: TestUser) =>
  server.request('GET', `/api/onlineusers/${target.user._id}`, { token: asker.token });
const status = async (asker: TestUser, target: TestUser) => (await presence(asker, target)).status;

async function showPresence(who: TestUser, on: boolean): Promise<void> {
  const res = await server.request('PATCH', `/api/users/${who.user._id}`, { token: who.token, body: { showPresence: on } });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ showPresence: on });
}

/** Two people who talk by name. */
async function namedPair(prefix: string): Promise<[TestUser, TestUser]> {
  const [target, asker] = await buildUsers(server, 2, prefix);
  await buildConversation(server, asker, target, false);
  return [target, asker];
}

describe('GET /api/onlineusers/{id}: opt-in and coarse', () => {
  it('is off by default: 204 whatever the sockets, until both show their presence', async () => {
    const [target, asker] = await namedPair('pof');
    const me = await server.request('GET', '/api/auth/me', { token: target.token });
    expect(me.body).toMatchObject({ showPresence: false });
    const socket = await connectClient(server, { token: target.token });
    try {
      await settle(SETTLE_MS + 300);
      expect(await status(asker, target)).toBe(204);
      // The asker with presence off sees 204 for a target who shows it.
      await showPresence(target, true);
      expect(await status(asker, target)).toBe(204);
      await showPresence(asker, true);
      expect(await presence(asker, target)).toMatchObject({ status: 200, body: { online: true } });
      // The target turning it off again hides them at once.
      await showPresence(target, false);
      expect(await status(asker, target)).toBe(204);
    } finally {
      socket.close();
    }
  });

  it('shows a named contact only once a socket has been open for the settle time, and until that long after it closed', async () => {
    const [target, asker] = await namedPair('pon');
    await showPresence(target, true);
    await showPresence(asker, true);
    const opened = Date.now();
    const socket = await connectClient(server, { token: target.token });
    expect(await status(asker, target)).toBe(204);
    await expect.poll(() => status(asker, target), { timeout: SETTLE_MS * 3, interval: 50 }).toBe(200);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(SETTLE_MS);

    const closed = Date.now();
    socket.close();
    await settle(100);
    expect(await status(asker, target)).toBe(200);
    await expect.poll(() => status(asker, target), { timeout: SETTLE_MS * 3, interval: 50 }).toBe(204);
    expect(Date.now() - closed).toBeGreaterThanOrEqual(SETTLE_MS);
  });

  it('never shows a short visit: open the app, act, leave', async () => {
    const [target, asker] = await namedPair('psh');
    await showPresence(target, true);
    await showPresence(asker, true);
    const conversation = await buildConversation(server, target, (await buildUsers(server, 1, 'psr'))[0]);
    const seen: number[] = [];
    const polling = { on: true };
    const poller = (async () => {
      while (polling.on) {
        seen.push(await status(asker, target));
        await settle(20);
      }
    })();
    const socket = await connectClient(server, { token: target.token });
    const ack = await socket.socket.timeout(2000).emitWithAck('sendMessage', { conversationId: conversation.id, text: 'from nobody' });
    expect(ack.ok).toBe(true);
    await settle(SETTLE_MS / 4);
    socket.close();
    await settle(SETTLE_MS * 2);
    polling.on = false;
    await poller;
    // Sampled all through the visit and after it, every 20 ms at best; a loaded machine manages fewer.
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect(new Set(seen)).toEqual(new Set([204]));
  });

  it('never answers for an anonymous-only tie: the same 403 as for a stranger, either way', async () => {
    const [giver, recipient, stranger] = await buildUsers(server, 3, 'pan');
    await giveGift(server, giver, recipient, 5);
    for (const who of [giver, recipient, stranger]) await showPresence(who, true);
    const socket = await connectClient(server, { token: giver.token });
    try {
      await settle(SETTLE_MS + 300);
      const anonymous = await presence(recipient, giver);
      const unrelated = await presence(recipient, stranger);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual(unrelated.body);
      expect(await status(giver, recipient)).toBe(403);
    } finally {
      socket.close();
    }
  });

  it('answers exactly about oneself, whatever the setting', async () => {
    const [me] = await buildUsers(server, 1, 'pme');
    expect(await status(me, me)).toBe(204);
    const socket = await connectClient(server, { token: me.token });
    expect(await status(me, me)).toBe(200);
    socket.close();
    await expect.poll(() => status(me, me), { timeout: 2000, interval: 20 }).toBe(204);
  });
});

/** Every statement `work` sends through the connection `db.manager` reads on, with its parameters. */
async function statementsOf(db: Database, work: () => Promise<unknown>): Promise<{ query: string; parameters: unknown[] }[]> {
  const logger = db.manager.connection.logger;
  const original = logger.logQuery.bind(logger);
  const seen: { query: string; parameters: unknown[] }[] = [];
  logger.logQuery = (query, parameters, runner) => {
    seen.push({ query, parameters: Array.isArray(parameters) ? parameters : parameters ? [parameters] : [] });
    original(query, parameters, runner);
  };
  try {
    await work();
  } finally {
    logger.logQuery = original;
  }
  return seen;
}

describe('the presence check never reads an anonymous tie', () => {
  it('sends the same one statement, with the same plan, whether or not the target is also the anonymous giver', async () => {
    // R talks by name with G and with S; G also gave to R anonymously, S did not.
    const [recipient, giver, other] = await buildUsers(server, 3, 'pqs');
    await buildConversation(server, recipient, giver, false);
    await buildConversation(server, recipient, other, false);
    await giveGift(server, giver, recipient, 5);
    const { db } = server.deps;

    const check = async (viewer: TestUser, target: TestUser) => {
      let allowed = false;
      const statements = await statementsOf(db, async () => {
        allowed = await maySeePresence(db, viewer.user._id, target.user._id);
      });
      return { allowed, statements };
    };
    const tied = await check(recipient, giver);
    const untied = await check(recipient, other);
    const back = await check(giver, recipient);
    expect([tied.allowed, untied.allowed, back.allowed]).toEqual([true, true, true]);
    expect(tied.statements).toHaveLength(1);
    for (const { statements } of [untied, back]) expect(statements.map((s) => s.query)).toEqual(tied.statements.map((s) => s.query));
    const [{ query, parameters }] = tied.statements;
    expect(query).toContain('pair_key');
    expect(query).not.toMatch(/anonymous_pseudonyms|initiator_anonymous\s*=/);
    expect(parameters).toEqual([`named:${[recipient.user._id, giver.user._id].sort().join(':')}`]);

    const explain = db.isPostgres ? 'EXPLAIN (COSTS OFF)' : 'EXPLAIN QUERY PLAN';
    const planOf = async (s: { query: string; parameters: unknown[] }) =>
      JSON.stringify(await db.manager.query(`${explain} ${s.query}`, s.parameters)).replaceAll(String(s.parameters[0]), '<key>');
    const plan = await planOf(tied.statements[0]);
    expect(await planOf(untied.statements[0])).toEqual(plan);
    if (!db.isPostgres) expect(plan).toContain('uq_conversation_pair_key');
  });
});

/** The two implementations, straight, on a clock of the test's own: the rule is the same on one process and through Redis. */
const SHORT = 60_000;
let now = Date.now();
const clock = () => now;
const advance = (ms: number) => {
  now += ms;
};
const redisUrl = loadConfig().redisUrl;
const implementations: [string, () => Promise<Presence>][] = [['in memory', async () => new MemoryPresence(SHORT, clock)]];
if (redisUrl) {
  implementations.push([
    'in Redis',
    async () => {
      const log = pino({ level: 'silent' });
      const client = await connectRedis(redisUrl, log, 'presence-test');
      const store = new RedisPresence(client, `giftlink-test-presence-${process.pid}-${Date.now()}`, log, SHORT, 120_000, clock);
      const close = store.close.bind(store);
      return Object.assign(store, {
        close: async () => {
          await close();
          await client.quit();
        },
      });
    },
  ]);
}

describe.each(implementations)('presence %s', (_, make) => {
  let store: Presence;
  beforeAll(async () => {
    store = await make();
  });
  afterAll(() => store?.close());
  let n = 0;
  const user = () => `user-${++n}-${Date.now()}`;

  it('counts exactly, and shows only after the settle time and until that long after the last socket closed', async () => {
    const u = user();
    await store.add(u, 'a');
    await store.add(u, 'b');
    expect([await store.isOnline(u), await store.count(u), await store.shownOnline(u)]).toEqual([true, 2, false]);
    advance(SHORT - 1);
    expect(await store.shownOnline(u)).toBe(false);
    advance(1);
    expect(await store.shownOnline(u)).toBe(true);
    await store.remove(u, 'a');
    expect(await store.shownOnline(u)).toBe(true);
    await store.remove(u, 'b');
    expect([await store.isOnline(u), await store.count(u), await store.shownOnline(u)]).toEqual([false, 0, true]);
    advance(SHORT - 1);
    expect(await store.shownOnline(u)).toBe(true);
    advance(1);
    expect(await store.shownOnline(u)).toBe(false);
  });

  it('never shows a visit shorter than the settle time, before, during or after it', async () => {
    const u = user();
    await store.add(u, 'a');
    advance(SHORT - 1);
    expect(await store.shownOnline(u)).toBe(false);
    await store.remove(u, 'a');
    for (let i = 0; i < 4; i++) {
      expect(await store.shownOnline(u)).toBe(false);
      advance(SHORT / 2);
    }
  });

  it('a socket reopened while still shown goes on being shown; one reopened after a short visit starts over', async () => {
    const shown = user();
    await store.add(shown, 'a');
    advance(SHORT);
    await store.remove(shown, 'a');
    advance(SHORT / 2);
    await store.add(shown, 'b');
    expect(await store.shownOnline(shown)).toBe(true);

    const short = user();
    await store.add(short, 'a');
    advance(SHORT / 2);
    await store.remove(short, 'a');
    advance(SHORT / 4);
    await store.add(short, 'b');
    advance(SHORT - 1);
    expect(await store.shownOnline(short)).toBe(false);
    advance(1);
    expect(await store.shownOnline(short)).toBe(true);
  });
});
