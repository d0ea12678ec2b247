import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { isOutdated } from './version.js';

// The desktop app's side of the API: CORS for its `app://giftlink` origin (no credentials) and
// the 426 that tells an outdated app to update.
const APP = 'app://giftlink';
const DOWNLOAD = 'https://giftlink.example/download';

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startTestServer({ MIN_DESKTOP_VERSION: '1.2.0', DESKTOP_DOWNLOAD_URL: DOWNLOAD });
  ann = await buildUser(server);
});
afterAll(() => server?.close());

const preflight = (origin: string, method = 'POST', path = '/api/auth/login') =>
  server.request('OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type,x-auth-token,x-giftlink-version',
    },
  });

const list = (value: string | null) => (value ?? '').split(',').map((s) => s.trim().toLowerCase());

describe('CORS for the desktop app', () => {
  it('answers a preflight from app://giftlink with the methods and headers the app sends, and no credentials', async () => {
    for (const [method, path] of [
      ['POST', '/api/auth/login'],
      ['PATCH', `/api/users/${ann.user._id}`],
      ['DELETE', '/api/wishlists/x/items/y'],
    ]) {
      const res = await preflight(APP, method, path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(list(res.headers.get('access-control-allow-methods'))).toContain(method.toLowerCase());
      expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(['content-type', 'x-auth-token', 'x-giftlink-version', 'idempotency-key']),
      );
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('lets app://giftlink call the API with its token header and read the headers it needs', async () => {
    const me = await server.request('GET', '/api/auth/me', { token: ann.token, headers: { origin: APP } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ _id: ann.user._id });
    expect(me.headers.get('access-control-allow-origin')).toBe(APP);
    expect(me.headers.get('access-control-allow-credentials')).toBeNull();
    expect(list(me.headers.get('access-control-expose-headers'))).toEqual(expect.arrayContaining(['x-auth-token', 'retry-after']));

    // A write with the header token is not a cookie request: the same-origin rule for cookies does not apply…
    const write = await server.request('PATCH', `/api/users/${ann.user._id}`, {
      token: ann.token,
      headers: { origin: APP },
      body: { bio: 'from the app' },
    });
    expect(write.status).toBe(200);
    expect(write.headers.get('access-control-allow-origin')).toBe(APP);

    // …but a cookie riding along with a write from the app's origin is still refused (cookies are same-origin only).
    const login = await server.request<{ token: string }>('POST', '/api/auth/login', {
      body: { email: ann.user.email, password: ann.password },
      headers: { origin: APP },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('access-control-allow-origin')).toBe(APP);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const viaCookie = await server.request('PATCH', `/api/users/${ann.user._id}`, {
      headers: { cookie, origin: APP },
      body: { bio: 'cookie' },
    });
    expect(viaCookie).toMatchObject({ status: 403, body: { error: 'forbidden' } });
  });

  it('error answers carry the CORS headers too, so the app can read them', async () => {
    // A token that no longer holds is a 401 (no credentials at all is a 204: a visitor).
    const res = await server.request('GET', '/api/auth/me', { headers: { origin: APP, 'x-auth-token': 'not-a-session' } });
    expect(res).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('gives another origin no CORS headers, for preflights and requests alike', async () => {
    for (const origin of ['https://evil.example', 'app://giftlink.evil', 'null', 'http://localhost:3000']) {
      const pre = await preflight(origin);
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(pre.headers.get('access-control-allow-headers'), origin).toBeNull();
      const res = await server.request('GET', '/api/auth/me', { token: ann.token, headers: { origin } });
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('leaves same-origin website requests as they were', async () => {
    const res = await server.request('GET', '/api/auth/me', { token: ann.token, headers: { origin: server.url } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('lets the app show our images (Cross-Origin-Resource-Policy) and keeps other answers same-origin', async () => {
    const image = await server.request('GET', '/catalog/images/alder-outdoor-6mm-comfort-non-slip-yoga-mat-lavender.jpg');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const json = await server.request('GET', '/api/auth/me', { token: ann.token });
    expect(json.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it("allows the app's origin on the socket.io handshake, without credentials", async () => {
    const res = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: APP, 'x-auth-token': ann.token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('desktop app version', () => {
  const me = (version?: string, origin?: string) =>
    server.request('GET', '/api/auth/me', {
      token: ann.token,
      headers: { ...(version === undefined ? {} : { 'x-giftlink-version': version }), ...(origin ? { origin } : {}) },
    });

  it('answers 426 upgrade_required with the download address below MIN_DESKTOP_VERSION', async () => {
    for (const version of ['1.1.9', '0.1.0', '1.2.0-beta.1', 'not-a-version']) {
      const res = await me(version, APP);
      expect(res.status, version).toBe(426);
      expect(res.body).toEqual({ error: 'upgrade_required', message: 'Please update Giftlink to keep using it.', downloadUrl: DOWNLOAD });
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    }
    // Before any route runs: no login, no write.
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: ann.user.email, password: ann.password },
      headers: { 'x-giftlink-version': '1.0.0' },
    });
    expect(login.status).toBe(426);
  });

  it('serves the minimum version and anything above it (compared as versions, not text)', async () => {
    for (const version of ['1.2.0', '1.2.1', '1.10.0', '2.0.0']) expect((await me(version, APP)).status, version).toBe(200);
  });

  it('refuses the socket.io handshake of an outdated app, and serves a current one', async () => {
    const handshake = (version: string) =>
      fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, {
        headers: { origin: APP, 'x-auth-token': ann.token, 'x-giftlink-version': version },
      });
    expect((await handshake('1.1.0')).status).toBe(403);
    expect((await handshake('1.2.0')).status).toBe(200);
  });

  it('leaves requests without the header (the website, scripts) alone', async () => {
    expect((await me()).status).toBe(200);
    expect((await me(undefined, server.url)).status).toBe(200);
    expect((await server.request('GET', '/healthz')).status).toBe(200);
  });

  it('compares versions with semver', () => {
    expect(isOutdated('0.0.9', '0.1.0')).toBe(true);
    expect(isOutdated('0.1.0', '0.1.0')).toBe(false);
    expect(isOutdated('0.10.0', '0.9.0')).toBe(false);
    expect(isOutdated('v1', '0.1.0')).toBe(true);
  });
});

describe('configuration', () => {
  it('defaults to the app origin, version 0.1.0 and PUBLIC_URL for the download', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://giftlink.example' });
    expect(config.corsOrigins).toEqual(['app://giftlink']);
    expect(config.minDesktopVersion).toBe('0.1.0');
    expect(config.desktopDownloadUrl).toBe('https://giftlink.example');
  });

  it('takes a list of origins and refuses anything that is not an origin', () => {
    expect(loadConfig({ CORS_ORIGINS: 'app://giftlink, https://desk.example' }).corsOrigins).toEqual([
      'app://giftlink',
      'https://desk.example',
    ]);
    for (const bad of ['*', 'https://desk.example/', 'https://desk.example/path', 'giftlink'])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ MIN_DESKTOP_VERSION: 'one' })).toThrow(/MIN_DESKTOP_VERSION/);
  });
});
