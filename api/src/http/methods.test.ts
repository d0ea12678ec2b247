import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { concretePath, methodsOf, registeredRoutes } from '../testing/routes.js';

let server: TestServer;
let me: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  me = await buildUser(server);
});
afterAll(() => server?.close());

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const UNKNOWN_TO_US = ['PROPFIND', 'MKCOL', 'PURGE'];

/** One request with any method (fetch refuses some), answered as status, headers and text. */
function raw(method: string, path: string, token?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + path, { method, headers: token ? { 'x-auth-token': token } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sorted = (list: Iterable<string>) => [...list].sort();

describe('a method a path does not take', () => {
  it('is a JSON 405 with an Allow header listing every method of that path, on every route', async () => {
    const routes = registeredRoutes(server);
    expect(routes.length).toBeGreaterThan(30);
    const values = {
      id: me.user._id,
      userId: me.user._id,
      username: me.user.username,
      linkCreatorUsername: me.user.username,
      inviteId: 'abc',
      conversationId: 'c1',
      postId: 'p1',
      itemId: 'v1|1|0',
      name: 'x.jpg',
    };
    const failures: string[] = [];
    let checked = 0;
    for (const path of new Set(routes.map((r) => concretePath(r, values)))) {
      const allowed = methodsOf(routes, path);
      for (const method of [...METHODS, ...UNKNOWN_TO_US].filter((m) => !allowed.has(m))) {
        checked += 1;
        const res = await raw(method, path, me.token);
        const allow = sorted(String(res.headers.allow ?? '').split(/,\s*/));
        const expected = sorted([...allowed, 'OPTIONS']);
        const body = method === 'HEAD' ? null : (JSON.parse(res.text || 'null') as { error?: string; message?: string } | null);
        const ok =
          res.status === 405 &&
          JSON.stringify(allow) === JSON.stringify(expected) &&
          (method === 'HEAD' || (body?.error === 'method_not_allowed' && typeof body.message === 'string')) &&
          String(res.headers['content-type']).startsWith('application/json');
        if (!ok) failures.push(`${method} ${path}: ${res.status} allow=${res.headers.allow} ${res.text}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('lets one router serve a method on a path another router also matches', async () => {
    // GET /links/all (feed) and POST /links/:linkCreatorUsername share the path /links/all.
    expect((await server.request('GET', '/links/all')).status).toBe(200);
    const put = await server.request('PUT', '/links/all');
    expect(put.status).toBe(405);
    expect(sorted(put.headers.get('allow')!.split(', '))).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    // /api/users/:id answers PATCH only, /api/users/getId/:username GET only: neither refuses the other.
    const getId = await server.request('GET', `/api/users/getId/${me.user.username}`, { token: me.token });
    expect(getId.status).toBe(200);
  });

  it('answers OPTIONS with the methods of the path', async () => {
    const res = await raw('OPTIONS', '/api/auth/login');
    expect(res.status).toBe(204);
    expect(sorted(String(res.headers.allow).split(', '))).toEqual(['OPTIONS', 'POST']);
  });
});

describe('an unknown path or method', () => {
  it('is a JSON 404 for any method on a path no route knows', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PROPFIND']) {
      const res = await raw(method, '/api/no-such-thing');
      expect(res.status, method).toBe(404);
      expect(JSON.parse(res.text), method).toEqual({ error: 'not_found', message: 'Not found' });
    }
  });

  it('is never a 5xx: a method the HTTP parser does not know gets a JSON 4xx', async () => {
    for (const method of ['FOO', 'BREW']) {
      const res = await raw(method, '/api/auth/me');
      expect(res.status, method).toBeGreaterThanOrEqual(400);
      expect(res.status, method).toBeLessThan(500);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toEqual({ error: 'unknown_method', message: 'This request method is not supported.' });
    }
    // and the server goes on answering
    expect((await server.request('GET', '/api/auth/me', { token: me.token })).status).toBe(200);
  });
});
