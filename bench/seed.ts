/**
 * Seeding shared by the benches: many users at once, open receive links for the feed, funded
 * givers, chat pairs with a conversation each, and the count of recorded gives after a run.
 */
import crypto from 'node:crypto';
import { SessionEntity } from '../api/src/auth/entity.js';
import { newSessionRecord, sessionToken } from '../api/src/auth/session.js';
import { ConversationEntity } from '../api/src/conversations/entity.js';
import type { Database } from '../api/src/db/index.js';
import type { Deps } from '../api/src/deps.js';
import { LinkEntity, LinkResponseEntity, type Link } from '../api/src/links/entity.js';
import { SYSTEM_PAYMENTS, transfer, userAccount } from '../api/src/money/ledger.js';
import { buildUsers, type TestServer, type TestUser } from '../api/src/testing/server.js';
import { UserEntity, newUserRecord } from '../api/src/users/entity.js';

/** Rows per seeding insert. */
export const BATCH = 250;

export async function buildManyUsers(server: TestServer, count: number, prefix: string): Promise<TestUser[]> {
  const users: TestUser[] = [];
  // batches: TypeORM re-reads inserted rows with one OR per row, and SQLite's expression depth is 1000
  for (let i = 0; i < count; i += BATCH) users.push(...(await buildUsers(server, Math.min(BATCH, count - i), prefix)));
  return users;
}

/** `count` open $5 receive links, one per new creator (a user holds one active link), newest last. */
export async function seedFeedLinks(server: TestServer, count: number): Promise<Link[]> {
  const creators = await buildManyUsers(server, count, 'feed');
  const now = Date.now();
  const links: Link[] = creators.map((c, i) => ({
    id: crypto.randomUUID(),
    creatorId: c.user._id,
    type: 'currency',
    giveOrReceive: 'receive',
    amountCents: 500,
    initialQuantity: 1000,
    remainingQuantity: 1000,
    title: '$5.00',
    photo: null,
    itemId: null,
    totalCostCents: 500_000,
    raisedCents: 0,
    gifts: 0,
    status: 'active',
    views: 0,
    // spread over the past few hours so the feed's order is meaningful
    createdAt: new Date(now - (count - i) * 1000),
    expiresAt: new Date(now + 24 * 3600_000),
    closedAt: null,
  }));
  for (let i = 0; i < links.length; i += BATCH) {
    // copies: TypeORM writes re-read values back into the objects it is given
    const batch = links.slice(i, i + BATCH).map((l) => ({ ...l }));
    await server.deps.db.transaction((em) => em.insert(LinkEntity, batch));
  }
  return links;
}

/** `count` new users with `cents` each, moved from system:payments through the ledger. */
export async function seedGivers(server: TestServer, count: number, cents: number): Promise<TestUser[]> {
  const givers = await buildManyUsers(server, count, 'giver');
  await server.deps.db.transaction(async (em) => {
    for (const g of givers)
      await transfer(em, {
        from: SYSTEM_PAYMENTS,
        to: userAccount(g.user._id),
        amountCents: cents,
        kind: 'deposit',
        actorUserId: g.user._id,
      });
  });
  return givers;
}

export interface ChatPairs {
  tokens: string[];
  /** Pair i: user 2i writes to user 2i+1 in conversations[i]. */
  conversations: string[];
}

/** `pairs` pairs of users who cannot sign in (no password), each pair with a conversation and each user with a session. */
export async function seedChatPairs(deps: Pick<Deps, 'db' | 'tokens' | 'config'>, pairs: number, prefix = 'rt'): Promise<ChatPairs> {
  const { db } = deps;
  const users = Array.from({ length: pairs * 2 }, (_, i) =>
    newUserRecord({ username: `${prefix}${i}`, email: `${prefix}${i}@example.com`, passwordHash: 'bench-no-login' }),
  );
  const now = new Date();
  const conversations = Array.from({ length: pairs }, (_, i) => ({
    id: crypto.randomUUID(),
    initiatorId: users[2 * i].id,
    responderId: users[2 * i + 1].id,
    initiatorAnonymous: true,
    pairKey: `anon:${crypto.randomUUID()}`,
    lastMessageId: null,
    lastMessageAt: now,
    createdAt: now,
  }));
  const sessions = users.map((u) => newSessionRecord(u.id, { ttlHours: deps.config.tokenTtlHours, userAgent: 'bench' }));
  const insert = async (entity: typeof UserEntity | typeof ConversationEntity | typeof SessionEntity, rows: object[]) => {
    for (let i = 0; i < rows.length; i += BATCH)
      await db.transaction((em) =>
        em
          .createQueryBuilder()
          .insert()
          .into(entity)
          .values(rows.slice(i, i + BATCH))
          .updateEntity(false)
          .execute(),
      );
  };
  await insert(UserEntity, users);
  await insert(ConversationEntity, conversations);
  await insert(SessionEntity, sessions);
  const tokens = await Promise.all(sessions.map((s) => sessionToken(deps.tokens, s)));
  return { tokens, conversations: conversations.map((c) => c.id) };
}

/**
 * The number of recorded gives once the server has finished the requests autocannon left in
 * flight (it closes its sockets, the server still completes them): unchanged for 300 ms.
 */
export async function settledGiveCount(db: Database): Promise<number> {
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 100 && stable < 3; i++) {
    const n = await db.manager.countBy(LinkResponseEntity, { kind: 'give' });
    stable = n === last ? stable + 1 : 0;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}
