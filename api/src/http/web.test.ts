import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
let webDir: string;
beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Giftlink</title><div id="root"></div>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ WEB_DIR: webDir });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const page = (p: string) => fetch(server.url + p, { headers: { accept: 'text/html,application/xhtml+xml' } });

describe('web hosting', () => {
  it('answers /healthz', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves index.html for pages, uncached, with a CSP, including paths shared with the API', async () => {
    for (const p of ['/', '/login', '/profile/ana/settings', '/invites/accept/abc', '/messages/123']) {
      const res = await page(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('lets API calls on those paths through to the API', async () => {
    const res = await fetch(`${server.url}/invites/accept/abc`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual([]);
    const unknown = await fetch(`${server.url}/api/nothing-here`, { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'Not found' });
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await fetch(`${server.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=31536000,immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.headers.get('cache-control')).toBe('max-age=3600');
  });

  it('does not serve files outside the site', async () => {
    const res = await fetch(`${server.url}/..%2fpackage.json`);
    expect(res.status).toBe(404);
  });
});
