import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInstance } from '../db/instance.js';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';

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
  it('answers /healthz with its status alone, even to this machine, and checks a database id it is given, never telling its own', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
    const ask = (id: string) => fetch(`${server.url}/healthz`, { headers: { 'x-giftlink-instance': id } });
    const own = await ask((await readInstance(server.deps.db)).id);
    expect([own.status, await own.json()]).toEqual([200, { status: 'ok' }]);
    const other = await ask('00000000-0000-4000-8000-000000000000');
    expect([other.status, await other.json()]).toEqual([409, { status: 'other database' }]);
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

  it("tells a page whether the browser opening it holds a session, so a visitor's page asks nobody who is signed in", async () => {
    const cookieOf = (res: { headers: Headers }, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
    for (const p of ['/', '/login', '/link/nobody-at-all']) {
      const visitor = await page(p);
      expect(cookieOf(visitor, 'giftlink_visitor'), p).toMatch(/^giftlink_visitor=1; path=\/; samesite=lax$/);
      expect(visitor.headers.get('vary')).toMatch(/\bCookie\b/);
    }
    const cookie = (value: string) => fetch(`${server.url}/login`, { headers: { accept: 'text/html', cookie: value } });
    // A browser that holds a session (even one that has expired: the page then asks) is no visitor.
    expect(cookieOf(await cookie('giftlink_session=anything; giftlink_visitor=1'), 'giftlink_visitor')).toMatch(/^giftlink_visitor=;/);
    expect(cookieOf(await cookie('giftlink_session=anything'), 'giftlink_visitor')).toBeUndefined();
    // Signing in ends the visit at once, before any page is loaded again.
    const ana = await buildUser(server, { password: 'ana-secret' });
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: ana.user.email, password: 'ana-secret' },
      direct: true,
    });
    expect(login.status).toBe(200);
    expect(cookieOf(login, 'giftlink_visitor')).toMatch(/^giftlink_visitor=;/);
  });

  it('lets API calls on those paths through to the API', async () => {
    const res = await fetch(`${server.url}/invites/accept/abc`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual([]);
    const unknown = await fetch(`${server.url}/api/nothing-here`, { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'Not found' });
  });

  it('serves the page for any GET or HEAD no API route answers, whatever the client accepts', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      for (const p of ['/', '/login', '/some/page/nobody/made']) {
        const res = await fetch(server.url + p, { headers: accept ? { accept } : {} });
        expect(res.status, `${p} ${accept}`).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/text\/html/);
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(await res.text()).toContain('<div id="root">');
      }
    }
    const head = await fetch(`${server.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('never answers the page for API, socket, health, share-image or missing asset paths', async () => {
    for (const accept of [undefined, 'text/html']) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const api = await fetch(`${server.url}/api/nothing-here`, { headers });
      expect(api.status).toBe(404);
      expect(await api.json()).toEqual({ error: 'not_found', message: 'Not found' });
      for (const file of ['/assets/missing-123.js', '/assets/missing-123']) {
        const asset = await fetch(server.url + file, { headers });
        expect(asset.status, `${file} ${accept}`).toBe(404);
        expect(asset.headers.get('content-type')).not.toMatch(/text\/html/);
      }
      const image = await fetch(`${server.url}/wishlists/nobody-at-all/image`, { headers });
      expect(image.headers.get('content-type')).not.toMatch(/text\/html/);
      const health = await fetch(`${server.url}/healthz`, { headers });
      expect(await health.json()).toMatchObject({ status: 'ok' });
    }
    // An API route that answers 404 itself stays the API's answer.
    const user = await fetch(`${server.url}/wishlists/nobody-at-all`);
    expect(user.status).toBe(404);
    expect(user.headers.get('content-type')).toMatch(/application\/json/);
    // A missing file is no page either (unless a browser navigates to it).
    expect((await fetch(`${server.url}/favicon.ico`)).status).toBe(404);
    // A method the path does not take stays a 405.
    const method = await fetch(`${server.url}/wishlists/update`);
    expect(method.headers.get('content-type')).not.toMatch(/text\/html/);
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await fetch(`${server.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('does not serve files outside the site', async () => {
    const res = await fetch(`${server.url}/..%2fpackage.json`);
    expect(res.status).toBe(404);
  });
});
