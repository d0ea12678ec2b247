import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_BIRTH_DATE, buildUser, newInviteCode, startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const register = async (fields: Record<string, unknown>) =>
  server.request('POST', '/api/auth/register', {
    body: { inviteCode: await newInviteCode(server), dateOfBirth: ADULT_BIRTH_DATE, ...fields },
  });

describe('register, login, me, logout', () => {
  it('registers with an invite and lands logged in', async () => {
    const res = await register({ username: 'Marta_B', email: 'Marta@Example.com', password: 'hunter22' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username: 'marta_b', email: 'marta@example.com', balance: 0 });
    expect(res.body.wishlistItems).toEqual([]);
    expect(res.headers.get('set-cookie')).toMatch(/giftlink_session=.+; path=\/;.*samesite=lax; httponly/);
    const me = await server.request('GET', '/api/auth/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('marta_b');
  });

  it('logs in by email (any case) with the cookie and the token, and logs out', async () => {
    await register({ username: 'lena', email: 'lena@example.com', password: 'lenapass' });
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: 'LENA@example.com', password: 'lenapass' },
    });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['token', 'user', 'wishlistItems']);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const viaCookie = await server.request('GET', '/api/auth/me', { headers: { cookie } });
    expect(viaCookie.body.email).toBe('lena@example.com');

    const out = await server.request('POST', '/api/auth/logout', { headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/giftlink_session=;/);
  });

  it('answers the same 400 for a wrong email and a wrong password', async () => {
    await register({ username: 'omar', email: 'omar@example.com', password: 'omarpass' });
    const wrongPassword = await server.request('POST', '/api/auth/login', {
      body: { email: 'omar@example.com', password: 'not-his' },
    });
    const wrongEmail = await server.request('POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'omarpass' },
    });
    for (const res of [wrongPassword, wrongEmail]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'incorrect_login', message: 'Incorrect login information' });
    }
  });

  it('answers a visitor 204, and refuses /me with a forged token and after logout-by-password-change', async () => {
    expect((await server.request('GET', '/api/auth/me')).status).toBe(204);
    expect((await server.request('GET', '/api/auth/me', { token: 'abc.def.ghi' })).status).toBe(401);

    const { user, token, password } = await buildUser(server);
    const other = await server.request('POST', '/api/auth/login', { body: { email: user.email, password } });
    const change = await server.request('PATCH', `/api/users/${user._id}`, {
      token,
      body: { password: 'brand-new-pw', currentPassword: password },
    });
    expect(change.status).toBe(200);
    const fresh = change.headers.get('x-auth-token')!;
    expect((await server.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
    const relogin = await server.request('POST', '/api/auth/login', { body: { email: user.email, password: 'brand-new-pw' } });
    expect(relogin.status).toBe(200);
  });
});

describe('registration rules', () => {
  const ok = { username: 'abc', email: 'a@b.c', password: '123456' };
  let n = 0;
  const unique = (fields: Record<string, string>) => {
    n += 1;
    return {
      username: fields.username ?? `u${n}x${'y'.repeat(3)}`.slice(0, 15),
      email: fields.email ?? `m${n}@ex.io`,
      password: fields.password ?? ok.password,
    };
  };

  it.each([
    ['username', 'ab', 400],
    ['username', 'abc', 201],
    ['username', 'a'.repeat(15), 201],
    ['username', 'b'.repeat(16), 400],
    ['email', 'a@b.', 400],
    ['email', 'x@y.z', 201], // 5 characters, and an address a browser's email field accepts
    ['email', 'x@y.io', 201],
    ['email', `${'e'.repeat(29)}@ex.io`, 201],
    ['email', `${'f'.repeat(30)}@ex.io`, 400],
    ['password', '12345', 400],
    ['password', '123456', 201],
    ['password', 'p'.repeat(35), 201],
    ['password', 'p'.repeat(36), 400],
  ])('%s %j → %i', async (field, value, status) => {
    const res = await register(unique({ [field]: value }));
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.message).toMatch(/must be|valid/);
    }
  });

  it('keeps usernames and emails unique regardless of case', async () => {
    expect((await register({ username: 'Zed', email: 'zed@ex.io', password: 'zedzed' })).status).toBe(201);
    for (const clash of [
      { username: 'ZED', email: 'other@ex.io' },
      { username: 'zed2', email: 'ZED@EX.IO' },
    ]) {
      const res = await register({ ...clash, password: 'zedzed' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Username or Email already exists.');
    }
  });

  it('keeps names that are paths of their own for the app', async () => {
    const res = await register({ username: 'Get-Transaction', email: 'gt@ex.io', password: 'secret' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('That username is taken.');
  });

  it('needs a valid, unused invite', async () => {
    const missing = await server.request('POST', '/api/auth/register', {
      body: { username: 'noinv', email: 'noinv@ex.io', password: 'secret', dateOfBirth: ADULT_BIRTH_DATE },
    });
    expect(missing.status).toBe(400);
    const bogus = await server.request('POST', '/api/auth/register', {
      body: { username: 'noinv', email: 'noinv@ex.io', password: 'secret', dateOfBirth: ADULT_BIRTH_DATE, inviteCode: 'nope' },
    });
    expect(bogus.body.message).toBe('Invalid or expired invite link.');
  });

  it('answers a fake invite the same whether the username and email exist or not', async () => {
    await register({ username: 'known', email: 'known@ex.io', password: 'secret' });
    const attempt = (fields: Record<string, string>) =>
      server.request('POST', '/api/auth/register', {
        body: { password: 'secret', dateOfBirth: ADULT_BIRTH_DATE, inviteCode: 'made-up-code', ...fields },
      });
    const answers = await Promise.all([
      attempt({ username: 'known', email: 'known@ex.io' }),
      attempt({ username: 'KNOWN', email: 'fresh1@ex.io' }),
      attempt({ username: 'fresh2', email: 'Known@Ex.io' }),
      attempt({ username: 'fresh3', email: 'fresh3@ex.io' }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_invite', message: 'Invalid or expired invite link.' });
    }
    // With a real invite the clash is told, and the invite stays usable.
    const inviteCode = await newInviteCode(server);
    const clash = await server.request('POST', '/api/auth/register', {
      body: { username: 'known', email: 'other@ex.io', password: 'secret', dateOfBirth: ADULT_BIRTH_DATE, inviteCode },
    });
    expect(clash.body.message).toBe('Username or Email already exists.');
    expect((await server.request('GET', `/invites/accept/${inviteCode}`)).body).toHaveLength(1);
  });

  it.each([
    ['Anonymous', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['anonymous ', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['ＡＮＯＮＹＭＯＵＳ', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['An0nymous', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['\u202Eevil', 'Username may not contain characters that change the text direction.'],
    ['ab\u200Bcd', 'Username may not contain invisible characters.'],
    ['ab\u0007cd', 'Username may not contain control characters.'],
  ])('refuses the username %j', async (username, message) => {
    const res = await register(unique({ username }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_failed', message });
  });

  it('makes exactly one account from one invite under 20 concurrent registrations', async () => {
    const inviteCode = await newInviteCode(server);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.request('POST', '/api/auth/register', {
          body: { username: `racer${i}`, email: `racer${i}@ex.io`, password: 'racing', dateOfBirth: ADULT_BIRTH_DATE, inviteCode },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(19);
    const accept = await server.request('GET', `/invites/accept/${inviteCode}`);
    expect(accept.body).toEqual([]);
    const winner = created[0].body.user.username as string;
    for (let i = 0; i < 20; i++) {
      const lookup = await server.request('GET', `/api/users?username=racer${i}`, { token: created[0].body.token });
      expect(lookup.status).toBe(`racer${i}` === winner ? 200 : 404);
    }
  });

  it('answers malformed JSON and wrong types with a 4xx JSON message, never a 500', async () => {
    const bodies = [
      '{"username": ',
      '[1,2,3]',
      '"just a string"',
      JSON.stringify({ username: 42, email: 'a@b.cd', password: 'secret', inviteCode: 'x' }),
      JSON.stringify({ username: 'okname', email: ['a'], password: 'secret', inviteCode: 'x' }),
      JSON.stringify({ username: 'okname', email: 'a@b.cd', password: { $gt: '' }, inviteCode: 'x' }),
    ];
    for (const body of bodies) {
      const res = await server.request('POST', '/api/auth/register', { body });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
      expect(typeof res.body.message, body).toBe('string');
      expect(typeof res.body.error, body).toBe('string');
    }
    const huge = await server.request('POST', '/api/auth/login', {
      body: JSON.stringify({ email: 'a@b.cd', password: 'x'.repeat(200_000) }),
    });
    expect(huge.status).toBe(413);
  });
});

describe('rate limits', () => {
  it('counts each client behind a trusted proxy by its forwarded address', async () => {
    const proxied = await startTestServer({ AUTH_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    try {
      const attempt = (ip: string) =>
        proxied.request('POST', '/api/auth/login', {
          headers: { 'x-forwarded-for': ip },
          body: { email: 'a@b.cd', password: 'secret' },
        });
      expect([(await attempt('10.0.0.1')).status, (await attempt('10.0.0.1')).status, (await attempt('10.0.0.1')).status]).toEqual([
        400, 400, 429,
      ]);
      expect((await attempt('10.0.0.2')).status).toBe(400);
    } finally {
      await proxied.close();
    }
  });

  it('limits login attempts per client', async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.request('POST', '/api/auth/login', { body: { email: 'a@b.cd', password: 'secret' } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
