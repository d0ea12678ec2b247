/**
 * Two-world noninterference: two servers, each its own database, play the same sequence of
 * actions; they differ only in which of two users, G or S (both known to the recipient R by name),
 * is the anonymous giver A. After every step R's whole observation must be the same in both
 * (two-worlds-observe.ts). The alphabet of actions is in two-worlds-actions.ts and two-worlds-alphabet.ts.
 */
import crypto from 'node:crypto';
import { connectClient, type TestClient } from '../realtime/testing.js';
import type { Answer } from './two-worlds-observe.js';
import { SessionEntity } from '../auth/entity.js';
import { hashPassword } from '../users/passwords.js';
import { newSessionRecord, sessionToken } from '../auth/session.js';
import { UserEntity, newUserRecord } from '../users/entity.js';
import type { Reply, TestServer } from './server.js';

export type Giver = 'G' | 'S';
export type Role = Giver | 'R';
/** Who does an action: a role by name, or the anonymous giver. */
export type Actor = Role | 'A';
/** A thread R has: the anonymous one (with A) or the named one with G or S. */
export type Thread = 'anonymous' | Giver;
/** Who blocked from which thread: the pairs an action can make. */
export type BlockKey = 'A@anonymous' | 'R@anonymous' | 'R@G' | 'R@S' | 'G@G' | 'S@S';

export interface Person {
  role: Role;
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
}

export type Subscription = { state: 'none' } | { state: 'renewing' | 'cancelled'; id: string };

export interface World {
  name: 'world 1' | 'world 2';
  server: TestServer;
  /** Who A is in this world. */
  anonymous: Giver;
  people: Record<Role, Person>;
  startedAt: number;
  /** R's socket, open the whole run. */
  recipientSocket: TestClient;
  eventsSeen: number;
  /** Sockets of givers who went online by name. */
  online: Partial<Record<Giver, TestClient>>;
  thread: { anonymous: string | null; G: string; S: string };
  /** The blocks this world's actions made (ids per world), by who blocked from which thread. */
  blocks: Partial<Record<BlockKey, string>>;
  closed: Set<Giver>;
  suspended: Set<Giver>;
  /** R's link that is still open, if any (R holds one active link at a time). */
  recipientLink: string | null;
  subscription: Record<Giver, Subscription>;
  resetsAsked: Record<Giver, number>;
  passwordChanges: Record<Giver, number>;
  wishlistGifts: number;
  /** Outbox emails this world has read already. */
  mailRead: Set<string>;
  /** R's alerts already observed (two-worlds-observe.ts renders each new one as its email). */
  alertsSeen: Set<string>;
  /** What R polled while the step ran (presence while A's app was open). */
  duringStep: Answer[];
  /** Givers who turned on 'Show when I'm online' (the same in both worlds: a choice made by name). */
  showsPresence: Set<Giver>;
}

/** The person an actor is in `world`. */
export const personOf = (world: World, actor: Actor): Person => world.people[actor === 'A' ? world.anonymous : actor];

/** An HTTP call by `actor` with their current session. */
export function callAs(world: World, actor: Actor, method: string, path: string, body?: unknown): Promise<Reply> {
  return world.server.request(method, path, { token: personOf(world, actor).token, body });
}

/** A giver who cannot act (closed or suspended) in this world. */
export const inactive = (world: World, g: Giver) => world.closed.has(g) || world.suspended.has(g);

/** Signs `g` in again (after a sign-out, suspension or new password) and keeps the new session. */
export async function signIn(world: World, g: Giver): Promise<number> {
  const p = world.people[g];
  const reply = await world.server.request<{ token?: string }>('POST', '/api/auth/login', {
    body: { email: p.email, password: p.password },
  });
  if (reply.status === 200 && reply.body.token) p.token = reply.body.token;
  return reply.status;
}

/** A giver's socket went away with their session: drop it on the client side too. */
export function dropSocket(world: World, g: Giver): void {
  world.online[g]?.close();
  delete world.online[g];
}

// Usernames are the same in both worlds (at most 15 characters): one tag per test file, a counter per run.
const FILE_TAG = crypto.randomBytes(3).toString('hex');
let runs = 0;

/** The names of a new run's users, shared by its two worlds. */
export function newRunNames(): Record<Role, string> {
  runs += 1;
  const run = runs.toString(36).padStart(3, '0');
  return { G: `w${FILE_TAG}${run}g`, S: `w${FILE_TAG}${run}s`, R: `w${FILE_TAG}${run}r` };
}

const FIRST_PASSWORD = 'two-worlds-pass-0';
let firstHash: Promise<string> | undefined;

/** A fresh world for one run: G and S each make a $1 give link that R accepts, so R knows both by name. */
export async function buildWorld(
  server: TestServer,
  name: World['name'],
  anonymous: Giver,
  names: Record<Role, string>,
  startedAt: number,
): Promise<World> {
  const people = {} as Record<Role, Person>;
  // Written straight to the database as buildUsers does: registering through HTTP costs an argon2 hash each.
  firstHash ??= hashPassword(FIRST_PASSWORD, server.deps.config.passwordHash);
  const passwordHash = await firstHash;
  for (const role of ['G', 'S', 'R'] as const) {
    const username = names[role];
    const email = `${username}@example.com`;
    const user = newUserRecord({ username, email, passwordHash });
    const session = newSessionRecord(user.id, { ttlHours: server.deps.config.tokenTtlHours, userAgent: 'two-worlds' });
    await server.deps.db.transaction(async (em) => {
      await em.insert(UserEntity, { ...user });
      await em.insert(SessionEntity, { ...session });
    });
    const token = await sessionToken(server.deps.tokens, session);
    people[role] = { role, id: user.id, username, email, password: FIRST_PASSWORD, token };
  }
  const thread = { anonymous: null, G: '', S: '' };
  for (const g of ['G', 'S'] as const) {
    const deposit = await server.request('POST', '/api/billing-settings-deposit', { token: people[g].token, body: { balance: 1 } });
    if (deposit.status !== 200) throw new Error(`${g}'s deposit: ${deposit.status}`);
    const link = await server.request('POST', '/links/create', {
      token: people[g].token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 1, initialQuantity: 1 } },
    });
    if (link.status !== 201) throw new Error(`${g}'s give link: ${link.status} ${JSON.stringify(link.body)}`);
    const accepted = await server.request<{ conversationId: string }>('PUT', '/api/accept-link', {
      token: people.R.token,
      body: { linkCreatorUsername: people[g].username, linkResponderUsername: people.R.username },
    });
    if (accepted.status !== 200) throw new Error(`R accepting ${g}'s link: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    thread[g] = accepted.body.conversationId;
  }
  // R shows presence too, so a giver who chooses to is really shown online (both sides must choose).
  const shown = await server.request('PATCH', `/api/users/${people.R.id}`, { token: people.R.token, body: { showPresence: true } });
  if (shown.status !== 200) throw new Error(`R's presence setting: ${shown.status}`);
  const recipientSocket = await connectClient(server, { token: people.R.token });
  return {
    name,
    server,
    anonymous,
    people,
    startedAt,
    recipientSocket,
    eventsSeen: 0,
    online: {},
    thread,
    blocks: {},
    closed: new Set(),
    suspended: new Set(),
    recipientLink: null,
    subscription: { G: { state: 'none' }, S: { state: 'none' } },
    resetsAsked: { G: 0, S: 0 },
    passwordChanges: { G: 0, S: 0 },
    wishlistGifts: 0,
    mailRead: new Set(),
    alertsSeen: new Set(),
    duringStep: [],
    showsPresence: new Set(),
  };
}

/** Closes every socket a run opened. */
export function closeWorld(world: World): void {
  world.recipientSocket.close();
  for (const g of ['G', 'S'] as const) dropSocket(world, g);
}
