import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouters } from '../app.js';
import { authMiddleware } from './auth.js';
import { documentedRoutes, inputSchema, type DocumentedRoute } from './openapi.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

/**
 * Fuzzes every route that validates a body, query or params: values made from the route's own
 * schema (as the OpenAPI document publishes it), then broken (wrong types, missing and extra
 * fields, huge strings, unicode, boundary numbers, NUL…), sent over HTTP signed in and signed out.
 * Never a 5xx, never a hang, and a refused request (4xx) changes no balance, link or wishlist.
 */
type Json = Record<string, unknown>;

const CASES = Number(process.env.FUZZ_CASES ?? 20);
const TIMEOUT_MS = 5000;
/** Routes that end the fuzzing user's own session or account when a guess is right: fuzzed signed out only. */
const SIGNED_OUT_ONLY = /\/(logout|sessions|account\/delete)/;

const NASTY: unknown[] = [
  null,
  true,
  0,
  -1,
  -0,
  1.5,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x'.repeat(20_000),
  '😀'.repeat(2_000),
  'é\u202e\u200b\uFEFF',
  '\ud800',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '__proto__',
  '1e999',
  'NaN',
  [],
  [[[]]],
  {},
  { __proto__: { admin: true } },
];

const nasty = fc.oneof(fc.constantFrom(...NASTY), fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'binary', maxLength: 50 }));

/** Values that fit a JSON Schema (the common shapes zod writes), loosely: good enough to get past the first checks. */
function fits(schema: Json, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (union?.length) return fc.oneof(...union.map((s) => fits(s, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return fits(schema.allOf[0] as Json, depth + 1);
  const min = (k: string, fallback: number) => (typeof schema[k] === 'number' ? (schema[k] as number) : fallback);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uuid') return fc.uuid();
      const minLength = min('minLength', 0);
      return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(min('maxLength', 30), 30)) });
    }
    case 'integer': {
      const lo = Math.max(min('minimum', min('exclusiveMinimum', -1_000_001) + 1), -1_000_000);
      return fc.integer({ min: lo, max: Math.max(lo, Math.min(min('maximum', 1_000_000), 1_000_000)) });
    }
    case 'number': {
      const lo = Math.max(min('minimum', min('exclusiveMinimum', -1_000_000)), -1_000_000);
      return fc.double({ min: lo, max: Math.max(lo, Math.min(min('maximum', 1_000_000), 1_000_000)), noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fits((schema.items ?? {}) as Json, depth + 1), { maxLength: Math.min(min('maxItems', 3), 3) });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const record = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, fits(s, depth + 1)]));
      return fc.record(record, { requiredKeys: ((schema.required ?? []) as string[]).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A fitting value, then (usually) broken: one field replaced, dropped or added, or the whole value replaced. */
function inputs(schema: Json): fc.Arbitrary<unknown> {
  const base = fits(schema);
  const broken = fc.tuple(base, nasty, fc.nat(), fc.string({ maxLength: 12 })).map(([value, bad, pick, extra]) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad;
    const object = { ...(value as Json) };
    const keys = Object.keys(object);
    const key = keys.length ? keys[pick % keys.length] : undefined;
    switch (pick % 4) {
      case 0:
        if (key) object[key] = bad;
        break;
      case 1:
        if (key) delete object[key];
        break;
      case 2:
        object[extra || 'extra'] = bad;
        break;
      default:
        return bad;
    }
    return object;
  });
  return fc.oneof({ arbitrary: base, weight: 1 }, { arbitrary: broken, weight: 3 });
}

const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function queryString(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `?q=${encodeURIComponent(text(value))}`;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(value as Json))
    for (const one of Array.isArray(v) ? v : [v]) search.append(k, text(one).slice(0, 3000));
  const s = search.toString();
  return s ? `?${s}` : '';
}

function concretePath(route: DocumentedRoute, params: unknown): string {
  const values = (typeof params === 'object' && params !== null ? params : {}) as Json;
  // Cut by code points: a cut inside a surrogate pair is not a string encodeURIComponent takes.
  return route.template.replace(
    /:(\w+)/g,
    (_, name: string) => encodeURIComponent([...text(values[name] ?? name)].slice(0, 2000).join('')) || '%20',
  );
}

let server: TestServer;
let ann: TestUser;
let bo: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  [ann, bo] = await buildUsers(server, 2, 'fuzz');
  await depositFor(server, ann, 100);
  await depositFor(server, bo, 100);
  const link = await server.request('POST', '/links/create', {
    token: bo.token,
    body: {
      creatorUserId: bo.user._id,
      creatorUsername: bo.user.username,
      details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 2 },
    },
  });
  expect(link.status).toBe(201);
});
afterAll(() => server?.close());

/** Balances per account, links and wishlists: what a refused request must leave alone. */
async function snapshot(): Promise<string> {
  const q = (sql: string) => server.deps.db.source.query(sql) as Promise<unknown[]>;
  const [ledger, links, wishlists, items] = await Promise.all([
    q('SELECT account, SUM(amount_cents) AS total FROM ledger_entries GROUP BY account ORDER BY account'),
    q('SELECT id, status, remaining_quantity FROM links ORDER BY id'),
    q('SELECT COUNT(*) AS n FROM wishlists'),
    q('SELECT COUNT(*) AS n FROM wishlist_items'),
  ]);
  return JSON.stringify({ ledger, links, wishlists, items });
}

async function send(method: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' };
  if (token) headers['x-auth-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

describe('fuzzing every route', () => {
  it('never answers 5xx or hangs, and a refused request changes nothing', { timeout: 240_000 }, async () => {
    const routes = documentedRoutes(apiRouters(server.deps, authMiddleware())).filter(
      (r) => r.schemas.body || r.schemas.query || r.schemas.params,
    );
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let cases = 0;
    let refused = 0;
    let before = await snapshot();
    for (const route of routes) {
      const { body, query, params } = route.schemas;
      const arbitrary = fc.record({
        body: body ? inputs(inputSchema(body)) : fc.constant(undefined),
        query: query ? inputs(inputSchema(query)) : fc.constant(undefined),
        params: params ? inputs(inputSchema(params)) : fc.constant(undefined),
        signedIn: SIGNED_OUT_ONLY.test(route.template) ? fc.constant(false) : fc.boolean(),
      });
      for (const input of fc.sample(arbitrary, { numRuns: CASES, seed: Number(process.env.FUZZ_SEED ?? 15) })) {
        cases += 1;
        const path = concretePath(route, input.params) + (input.query === undefined ? '' : queryString(input.query));
        const label = `${route.method} ${path.slice(0, 200)} ${text(input.body).slice(0, 200)}`;
        let status: number;
        try {
          ({ status } = await send(route.method, path, input.body, input.signedIn ? ann.token : undefined));
        } catch (err) {
          failures.push(`${label}: ${(err as Error).name}`);
          continue;
        }
        if (status >= 500) failures.push(`${label}: ${status}`);
        const after = await snapshot();
        if (status >= 400 && status < 500) {
          refused += 1;
          if (after !== before) failures.push(`${label}: refused with ${status} but changed data`);
        }
        before = after;
      }
    }
    console.log(`fuzz: ${cases} cases over ${routes.length} routes, ${refused} refused`);
    expect(failures).toEqual([]);
    await expectLedgerSound(server.deps.db);
  });
});
