import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.js';
import { registeredRoutes } from '../testing/routes.js';

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { parameters: { name: string; in: string }[]; requestBody?: unknown; security?: unknown }>>;
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
    const viewer = await server.request<string>('GET', '/api/docs/scalar.js');
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toMatch(/javascript/);
    expect(viewer.body).toContain('createApiReference');
    expect(viewer.headers.get('content-encoding')).toBe('gzip');
    const start = await server.request<string>('GET', '/api/docs/start.js');
    expect(start.body).toContain("url: '/api/openapi.json'");
  });
});
