import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';
import { checkViolations, startPrism } from '../testing/prism.js';
import { registeredRoutes } from '../testing/routes.js';
import { ROUTES } from '../../contract/routes/index.js';

interface Answer {
  description: string;
  content?: Record<string, { schema: { type?: string; required?: string[]; additionalProperties?: unknown; items?: unknown } }>;
}
interface Operation {
  parameters: { name: string; in: string }[];
  requestBody?: unknown;
  security?: unknown;
  responses: Record<string, Answer>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the published API contract', () => {
  it('is a valid OpenAPI 3.1 document that lists every registered route', async () => {
    const res = await server.request<Document>('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body.openapi).toBe('3.1.0');

    const result = await validate(structuredClone(res.body) as unknown as Parameters<typeof validate>[0]);
    if (!result.valid) throw new Error(compileErrors(result));

    const routes = registeredRoutes(server);
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const path = route.template.replace(/:(\w+)/g, '{$1}');
      const operation = res.body.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.template}`).toBeDefined();
      for (const name of route.paramNames) expect(operation.parameters).toContainEqual(expect.objectContaining({ name, in: 'path' }));
    }
  });

  it('describes how every route answers when it succeeds, and nothing else', async () => {
    const { body } = await server.request<Document>('GET', '/api/openapi.json');
    const routes = registeredRoutes(server);
    const keys = new Set(routes.map((r) => `${r.method} ${r.template}`));
    // A route without a success answer (a new route must have its entry in api/contract/routes/)…
    const undescribed = routes.filter((route) => {
      const operation = body.paths[route.template.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
      return !Object.keys(operation.responses).some((status) => /^[23]\d\d$/.test(status));
    });
    expect(undescribed.map((r) => `${r.method} ${r.template}`)).toEqual([]);
    // …a route registered around the table (its validation then says nothing of what the client sends)…
    expect(routes.filter((r) => !r.fromTable).map((r) => `${r.method} ${r.template}`)).toEqual([]);
    // …and an answer for a route that does not exist (renamed or removed) all fail.
    expect(Object.keys(ROUTES).filter((key) => !keys.has(key))).toEqual([]);

    // JSON answers list their fields and allow no others: an answer that grew a field (an id it should not carry) is a violation.
    const me = body.paths['/api/auth/me'].get.responses;
    const user = me['200'].content!['application/json'].schema;
    expect(user).toMatchObject({ type: 'object', additionalProperties: false });
    expect(user.required).toEqual(expect.arrayContaining(['_id', 'email', 'balance', 'isSubscribed']));
    expect(me['204'].content).toBeUndefined();
    const feed = body.paths['/links/all'].get.responses;
    expect(feed['200'].content!['application/json'].schema).toMatchObject({ type: 'array', items: { type: 'object' } });
    expect(feed['304'].content).toBeUndefined();
    expect(Object.keys(body.paths['/api/wallet/history.csv'].get.responses['200'].content!)).toEqual(['text/csv']);
    expect(Object.keys(body.paths['/links/{username}/image'].get.responses['200'].content!)).toEqual(['image/png']);
    expect(body.paths['/analytics/pageview'].post.responses['204'].content).toBeUndefined();
    // A visitor's /me is a 204, not a refusal: signing in is optional there.
    expect(body.paths['/api/auth/me'].get.security).toContainEqual({});
    expect(body.paths['/api/auth/logout'].post.security).toBeUndefined();
    // Paths a middleware answers are described too.
    for (const [path, method] of [
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/api/openapi.json', 'get'],
      ['/subscriptions/webhook', 'post'],
    ])
      expect(Object.keys(body.paths[path][method].responses), path).toContain('200');
    expect(Object.keys(body.paths['/readyz'].get.responses)).toContain('503');
    // The recipient's order names no giver and no conversation: the schema says so.
    const orders = body.paths['/api/orders'].get.responses['200'].content!['application/json'].schema as {
      properties: { received: { items: { properties: Record<string, unknown> } } };
    };
    expect(Object.keys(orders.properties.received.items.properties)).not.toContain('conversationId');
  });

  it('has Prism fail an answer that contradicts the document, and pass bad input on to our server', async () => {
    const { body } = await server.request<Document>('GET', '/api/openapi.json');
    const schema = body.paths['/api/auth/me'].get.responses['200'].content!['application/json'].schema;
    schema.required = [...schema.required!, 'notAField'];
    const prism = await startPrism(server.url, JSON.stringify(body));
    try {
      const alice = await buildUser(server);
      const me = await fetch(`${prism.url}/api/auth/me`, { headers: { 'x-auth-token': alice.token } });
      expect(me.status).toBe(200);
      expect(() => checkViolations('GET', '/api/auth/me', me.status, me.headers)).toThrow(
        /GET \/api\/auth\/me \(200\) contradicts the OpenAPI document:\n.*response\.body.*notAField/,
      );
      // An invalid request still reaches the server, which refuses it itself; its answer matches the document.
      const bad = await fetch(`${prism.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 42 }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'validation_failed' });
      expect(bad.headers.get('sl-violations')).toMatch(/"location":\["request","body"/);
      expect(() => checkViolations('POST', '/api/auth/login', bad.status, bad.headers)).not.toThrow();
    } finally {
      await prism.close();
    }
  });

  it('describes the bodies and queries the routes validate, and which routes need a session', async () => {
    const { body } = await server.request<Document>('GET', '/api/openapi.json');
    const create = body.paths['/links/create'].post;
    expect(create.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object' } } } });
    expect(create.security).toBeDefined();
    expect(body.paths['/api/auth/login'].post.security).toBeUndefined();
    expect(body.paths['/api/auth/login'].post.requestBody).toMatchObject({
      content: { 'application/json': { schema: { properties: { password: { type: 'string' } } } } },
    });
  });

  it('serves a reference page whose viewer comes from our own origin', async () => {
    const page = await server.request<string>('GET', '/api/docs', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('<script src="/api/docs/scalar.js"></script>');
    expect(page.body).not.toMatch(/<script>/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    // Straight to the server: a proxy (PRISM=1) decodes the gzip this checks.
    const viewer = await server.request<string>('GET', '/api/docs/scalar.js', { direct: true });
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toMatch(/javascript/);
    expect(viewer.body).toContain('createApiReference');
    expect(viewer.headers.get('content-encoding')).toBe('gzip');
    const start = await server.request<string>('GET', '/api/docs/start.js');
    expect(start.body).toContain("url: '/api/openapi.json'");
  });
});
