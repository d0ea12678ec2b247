import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_BIRTH_DATE, buildUser, newInviteCode, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
let user: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  user = await buildUser(server);
});
afterAll(() => server?.close());

describe('Cache-Control on signed-in answers', () => {
  it('is no-store on a signed-in answer, by token or by cookie, errors included', async () => {
    const me = await server.request('GET', '/api/auth/me', { token: user.token });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');

    const login = await server.request('POST', '/api/auth/login', { body: { email: user.user.email, password: user.password } });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const viaCookie = await server.request('GET', '/links/all', { headers: { cookie } });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.headers.get('cache-control')).toBe('no-store');

    const missing = await server.request('GET', '/api/users/no-such-user-here', { token: user.token });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves anonymous answers alone', async () => {
    const feed = await server.request('GET', '/links/all');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control') ?? '').not.toContain('no-store');
  });
});

describe('Content-Security-Policy', () => {
  it('lets the page connect to its own origin only (no ws:/wss: to any host)', async () => {
    const res = await server.request('GET', '/links/all');
    const csp = res.headers.get('content-security-policy')!;
    const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src'))!;
    expect(connect.trim().split(/\s+/)).toEqual(['connect-src', "'self'"]);
  });
});

describe('the session cookie over https', () => {
  it('is Secure whenever PUBLIC_URL is https', async () => {
    const https = await startTestServer({ PUBLIC_URL: 'https://giftlink.example' });
    try {
      const res = await https.request('POST', '/api/auth/register', {
        body: {
          username: 'securecookie',
          email: 'secure@example.com',
          password: 'secret-pass',
          dateOfBirth: ADULT_BIRTH_DATE,
          inviteCode: await newInviteCode(https),
        },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('set-cookie')).toMatch(/giftlink_session=[^;]+;.*secure/i);
    } finally {
      await https.close();
    }
  });

  it('is not Secure on a plain-http PUBLIC_URL (local development)', async () => {
    const login = await server.request('POST', '/api/auth/login', { body: { email: user.user.email, password: user.password } });
    expect(login.headers.get('set-cookie')).not.toMatch(/;\s*secure/i);
  });
});
