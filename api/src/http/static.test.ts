import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet, type RawAnswer } from '../testing/http.js';
import { startTestServer, type TestServer } from '../testing/server.js';
import { pickEncoding } from './web.js';

let server: TestServer;
let webDir: string;
const script = `console.log(${JSON.stringify('giftlink '.repeat(800))});`;
beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-static-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    `<!doctype html><title>Giftlink</title><div id="root"></div>${'<!-- x -->'.repeat(200)}`,
  );
  const asset = path.join(webDir, 'assets', 'index-abc123.js');
  fs.writeFileSync(asset, script);
  // As scripts/precompress.ts leaves them: the server must answer these bytes, not compress again.
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`);
  server = await startTestServer({ WEB_DIR: webDir });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

/** A GET whose body stays as sent (fetch would decode it). */
const get = (p: string, headers: Record<string, string> = {}) => rawGet(server.url + p, headers);
const raw = async (res: RawAnswer) => res.body;
const text = (res: RawAnswer) => res.body.toString();

describe('static files', () => {
  it('answers the precompressed brotli, gzip or identity file the client accepts', async () => {
    const cases: [string, string | null, (b: Buffer) => Buffer][] = [
      ['gzip, deflate, br, zstd', 'br', (b) => zlib.brotliDecompressSync(b)],
      ['br;q=0, gzip', 'gzip', (b) => zlib.gunzipSync(b)],
      ['identity', null, (b) => b],
      ['', null, (b) => b],
    ];
    for (const [accept, coding, decode] of cases) {
      const res = await get('/assets/index-abc123.js', { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(coding);
      expect(res.headers.get('vary'), accept).toMatch(/accept-encoding/i);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(decode(await raw(res)).toString(), accept).toBe(script);
    }
  });

  it('picks an encoding by q-value, wildcard and what exists', () => {
    expect(pickEncoding('gzip, br', ['br', 'gzip'])).toBe('br');
    expect(pickEncoding('*', ['gzip'])).toBe('gzip');
    expect(pickEncoding('br;q=0.0, *;q=0.5', ['br', 'gzip'])).toBe('gzip');
    expect(pickEncoding('gzip;q=0', ['br', 'gzip'])).toBeUndefined();
    expect(pickEncoding('deflate', ['br', 'gzip'])).toBeUndefined();
  });

  it('caches hashed assets for a year with a strong ETag, and answers 304 to If-None-Match', async () => {
    const first = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' });
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('etag')).not.toBe(etag);
    const again = await get('/assets/index-abc123.js', { 'accept-encoding': 'br', 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await raw(again)).length).toBe(0);
    expect(again.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('gives index.html and the favicon an ETag, revalidated or cached briefly, with every security header', async () => {
    // A page without markup of its own (a visitor's home, login, link and wishlist pages have some: sharing/pages.tsx).
    const page = await get('/register', { accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(await raw(page)).toString()).toContain('<div id="root">');
    const etag = page.headers.get('etag')!;
    const revalidated = await get('/forgot-password', { accept: 'text/html', 'accept-encoding': 'br, gzip', 'if-none-match': etag });
    expect(revalidated.status).toBe(304);

    const icon = await get('/favicon.svg', { 'accept-encoding': 'gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(icon.headers.get('content-encoding')).toBe('gzip');
    expect(icon.headers.get('etag')).toMatch(/^"[\w-]+-gzip"$/);
    for (const res of [page, icon]) {
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBeTruthy();
    }
    const icon304 = await get('/favicon.svg', { 'accept-encoding': 'gzip', 'if-none-match': icon.headers.get('etag')! });
    expect(icon304.status).toBe(304);
  });

  it('answers 404 for a missing asset, and never a file outside the site or a dotfile', async () => {
    fs.writeFileSync(path.join(webDir, '.secret.txt'), 'no');
    for (const p of ['/assets/missing-123.js', '/assets/%2e%2e/%2e%2e/etc/passwd.txt', '/.secret.txt']) {
      const res = await get(p, { 'accept-encoding': 'br' });
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).not.toMatch(/text\/html|javascript/);
    }
  });

  it('serves a rebuilt file (a new ETag) once 10 ms have passed, not the one it kept in memory', async () => {
    fs.writeFileSync(path.join(webDir, 'assets', 'changing-1.css'), 'body{color:red}');
    const before = await get('/assets/changing-1.css');
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(path.join(webDir, 'assets', 'changing-1.css'), 'body{color:blue}');
    const after = await get('/assets/changing-1.css');
    expect(text(after)).toBe('body{color:blue}');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});
