import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_BIRTH_DATE, buildUser, newInviteCode, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { concretePath, registeredRoutes, type RegisteredRoute } from '../testing/routes.js';
import type { AppState } from './context.js';
import { errorMiddleware } from './errors.js';

let server: TestServer;
let me: TestUser;
let other: TestUser;
let inviteCode: string;
let itemId: string;
beforeAll(async () => {
  server = await startTestServer();
  me = await buildUser(server);
  other = await buildUser(server);
  inviteCode = await newInviteCode(server);
  const found = await server.request('GET', '/api/products/search?q=mug', { token: me.token });
  itemId = found.body[0]?.itemId ?? 'v1|1|0';
});
afterAll(() => server?.close());

const NUL = 'a\u0000b';

/** A valid request for each route, so that a NUL put in one of its strings reaches the service. */
interface Sample {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  /** Sent without the session (logging out would end it). */
  noToken?: boolean;
}

function samples(): Record<string, Sample> {
  const id = me.user._id;
  const uuid = crypto.randomUUID();
  return {
    'POST /api/auth/register': {
      body: { username: 'newbie', email: 'newbie@ex.io', password: 'secret-pass', dateOfBirth: ADULT_BIRTH_DATE, inviteCode },
    },
    'POST /api/auth/login': { body: { email: me.user.email, password: me.password } },
    'POST /api/auth/logout': { noToken: true, query: { next: '/' } },
    'GET /api/users': { query: { username: other.user.username, userId: other.user._id } },
    'PATCH /api/users/:id': {
      body: { userId: id, username: me.user.username, displayName: 'Me', email: me.user.email, bio: 'b', location: 'l', password: '' },
    },
    'POST /api/upload': { form: { pfpOrCover: 'profilePicture', username: me.user.username } },
    'GET /api/products/search': { query: { q: 'mug' } },
    'POST /api/billing-settings-deposit': { body: { userId: id, balance: '5' } },
    'POST /api/billing-settings-withdrawal': { body: { userId: id, balance: '1' } },
    'GET /api/payouts': { query: { userId: id } },
    'POST /api/payouts/onboarding': { body: { userId: id } },
    'POST /api/payouts/dashboard': { body: { userId: id } },
    'POST /api/payouts/sandbox/complete': { body: { userId: id, routingNumber: '110000000', accountNumber: '000123456789' } },
    'POST /api/wallet/card-deposit': { body: { amount: '5', card: { number: '4242424242424242', expiry: '12/40', cvc: '123' } } },
    'POST /api/wallet/card-deposit/confirm': { body: { paymentIntentId: 'pi_unknown' } },
    'POST /links/create': {
      body: {
        creatorUserId: id,
        creatorUsername: me.user.username,
        details: { giveorreceive: 'receive', type: 'currency', amount: '5', quantity: '1' },
      },
    },
    'GET /links/all': { query: { page: '1' } },
    'GET /links/profile/:username': { query: { page: '1' } },
    'POST /links/:linkCreatorUsername': { body: { sessionId: uuid } },
    'GET /api/user-respond': { query: { linkId: uuid, creatorUsername: other.user.username, linkResponderUsername: me.user.username } },
    'PUT /api/accept-link': {
      body: { linkCreatorUsername: other.user.username, linkResponderUsername: me.user.username, lastMessage: 'hi' },
    },
    'POST /statuses/api/gives': { body: { postId: uuid, type: 'currency', amount: '5' } },
    'PUT /statuses/api/statuses/:postId/give': { body: { giveId: uuid, giveUserId: id, type: 'currency' } },
    'GET /messages/unread': { query: { userId: id } },
    'POST /messages/send': {
      body: { conversationId: uuid, text: 'hello', senderUserId: id, receiverUserId: other.user._id, clientId: 'c1' },
    },
    'GET /messages/:conversationId': { query: { page: '1' } },
    'GET /wishlists/get-transaction': { query: { itemId, wishlistUsername: other.user.username } },
    'PUT /wishlists/update': { body: { username: me.user.username, items: [{ itemId }] } },
    'POST /wishlists/purchase': { body: { wishlistUsername: other.user.username, purchaserUserId: id, itemId, lastMessage: 'hi' } },
  };
}

function paramValues(): Record<string, string> {
  return {
    id: me.user._id,
    userId: me.user._id,
    username: other.user.username,
    linkCreatorUsername: other.user.username,
    inviteId: inviteCode,
    conversationId: crypto.randomUUID(),
    postId: crypto.randomUUID(),
    itemId: encodeURIComponent(itemId),
    name: `${crypto.randomUUID()}.jpg`,
  };
}

/** Every path to a string leaf of `value`, with a copy of `value` where that leaf holds a NUL. */
function withNulInEachString(value: unknown, at: string[] = []): [string, unknown][] {
  if (typeof value === 'string') return [[at.join('.'), NUL]];
  if (Array.isArray(value))
    return value.flatMap((v, i) =>
      withNulInEachString(v, [...at, String(i)]).map(([p, changed]): [string, unknown] => [
        p,
        value.map((w, j) => (j === i ? changed : w)),
      ]),
    );
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) =>
      withNulInEachString(v, [...at, k]).map(([p, changed]): [string, unknown] => [p, { ...value, [k]: changed }]),
    );
  return [];
}

interface Case {
  name: string;
  method: string;
  path: string;
  sample: Sample;
}

/** For each route: a NUL (`%00`) in each path parameter, in each query value and in each body string. */
function nulCases(routes: RegisteredRoute[]): Case[] {
  const all = samples();
  const values = paramValues();
  const cases: Case[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.template}`;
    const writes = !['GET', 'DELETE'].includes(route.method);
    // A route without a sample of its own still gets a NUL in a query and a body field.
    const sample = all[key] ?? { query: { q: 'x' }, body: writes ? { text: 'x' } : undefined };
    const path = concretePath(route, values);
    for (const name of route.paramNames)
      cases.push({ name: `${key} :${name}`, method: route.method, path: concretePath(route, { ...values, [name]: 'a%00b' }), sample });
    for (const [at, query] of withNulInEachString(sample.query ?? {}))
      cases.push({ name: `${key} ?${at}`, method: route.method, path, sample: { ...sample, query: query as Record<string, string> } });
    for (const [at, body] of withNulInEachString(sample.body ?? {}))
      cases.push({ name: `${key} body.${at}`, method: route.method, path, sample: { ...sample, body: body as Record<string, unknown> } });
    for (const [at, form] of withNulInEachString(sample.form ?? {}))
      cases.push({ name: `${key} form.${at}`, method: route.method, path, sample: { ...sample, form: form as Record<string, string> } });
  }
  return cases;
}

async function send({ method, path, sample }: Case) {
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  let body: unknown = sample.body;
  if (sample.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(sample.form)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'a.png');
    body = form;
  }
  return server.request(method, path + query, { token: sample.noToken ? undefined : me.token, body });
}

describe('a NUL character in any string', () => {
  it('is a 4xx JSON answer on every route, in every path parameter, query value and body string', async () => {
    const routes = registeredRoutes(server);
    expect(routes.length).toBeGreaterThan(30);
    const cases = nulCases(routes);
    // every route is exercised, and every sample still names a registered route
    const keys = new Set(routes.map((r) => `${r.method} ${r.template}`));
    expect(new Set(cases.map((c) => c.name.split(' ').slice(0, 2).join(' ')))).toEqual(keys);
    for (const key of Object.keys(samples())) expect(keys, key).toContain(key);

    const failures: string[] = [];
    for (const c of cases) {
      const res = await send(c);
      const ok = res.status >= 400 && res.status < 500 && typeof res.body?.error === 'string' && typeof res.body?.message === 'string';
      if (!ok) failures.push(`${c.name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(80);
  });

  it('is refused with a clear message, also as a query key and from a visitor', async () => {
    for (const p of ['/invites/accept/%00', '/links/all?page%00=1']) {
      const res = await server.request('GET', p);
      expect(res.status, p).toBe(400);
      expect(res.body, p).toEqual({ error: 'invalid_characters', message: 'Text may not contain NUL characters.' });
    }
    const open = await server.request('POST', '/links/%00');
    expect(open.status).toBe(400);
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'a\u0000@b.cd', password: 'secret-pass' } });
    expect(login.body.error).toBe('invalid_characters');
    // deep in a field no schema reads, and as a key
    const deep = `{"sessionId":"s","currentUser":${'['.repeat(5000)}"\\u0000"${']'.repeat(5000)}}`;
    for (const body of [deep, '{"sessionId":"s","currentUser":{"a\\u0000":1}}']) {
      const res = await server.request('POST', `/links/${other.user.username}`, { body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_characters');
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('a PostgreSQL invalid-text error that reaches the error middleware', () => {
  it('is a 400, not a 500', async () => {
    // A bare app with the one error middleware and handlers that hand PostgreSQL text it refuses.
    const app = new Koa<AppState>();
    app.use(async (ctx, next) => {
      ctx.state.log = server.deps.log;
      await next();
    });
    app.use(errorMiddleware);
    app.use(async (ctx) => {
      const sql = {
        '/nul': ['SELECT $1::text AS t', ['a\u0000b']],
        '/uuid': ['SELECT $1::uuid AS u', ['not-a-uuid']],
        '/fine': ['SELECT 1 AS one', []],
      }[ctx.path];
      if (!sql) return;
      ctx.body = await server.deps.db.source.query(sql[0] as string, sql[1] as unknown[]);
    });
    const bare = http.createServer(app.callback());
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    try {
      for (const p of ['/nul', '/uuid']) {
        const res = await fetch(base + p);
        expect(res.status, p).toBe(400);
        expect(await res.json(), p).toEqual({ error: 'invalid_text', message: 'The request holds text that cannot be stored.' });
      }
      expect((await fetch(`${base}/fine`)).status).toBe(200);
    } finally {
      bare.close();
    }
  });
});
