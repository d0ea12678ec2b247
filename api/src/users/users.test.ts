import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
let ana: TestUser;
let ben: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  ana = await buildUser(server, { username: 'ana', email: 'ana@example.com' });
  ben = await buildUser(server, { username: 'ben', email: 'ben@example.com' });
});
afterAll(() => server?.close());

describe('profiles', () => {
  it('shows another user only public fields, by username or id', async () => {
    for (const query of ['username=ANA', `userId=${ana.user._id}`]) {
      const res = await server.request('GET', `/api/users?${query}`, { token: ben.token });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('ana');
      expect(Object.keys(res.body).sort()).toEqual(
        ['_id', 'bio', 'coverPicture', 'displayName', 'isSubscribed', 'location', 'profilePicture', 'username'].sort(),
      );
      expect(JSON.stringify(res.body)).not.toContain('ana@example.com');
    }
  });

  it('shows the owner their private fields', async () => {
    const res = await server.request('GET', '/api/users?username=ana', { token: ana.token });
    expect(res.body).toMatchObject({ email: 'ana@example.com', balance: 0 });
  });

  it('answers 404 for an unknown user, 400 without a query and 401 without a session', async () => {
    expect((await server.request('GET', '/api/users?username=ghost', { token: ana.token })).status).toBe(404);
    expect((await server.request('GET', '/api/users', { token: ana.token })).status).toBe(400);
    expect((await server.request('GET', '/api/users?username=ana')).status).toBe(401);
  });

  it('finds a user id by username', async () => {
    const res = await server.request('GET', '/api/users/getId/Ben', { token: ana.token });
    expect(res.body).toEqual({ userId: ben.user._id });
  });
});

describe('PATCH /api/users/:id', () => {
  it('lets the owner edit their profile, lowercasing username and email', async () => {
    const owner = await buildUser(server);
    const res = await server.request('PATCH', `/api/users/${owner.user._id}`, {
      token: owner.token,
      body: {
        displayName: 'Chloé R.',
        bio: 'Coffee, books and bikes',
        location: 'Lyon',
        username: 'ChloeR',
        email: 'Chloe@Example.com',
        currentPassword: owner.password,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      displayName: 'Chloé R.',
      bio: 'Coffee, books and bikes',
      location: 'Lyon',
      username: 'chloer',
      email: 'chloe@example.com',
    });
    const again = await server.request('GET', '/api/auth/me', { token: owner.token });
    expect(again.body.username).toBe('chloer');
  });

  it('refuses another user with 403 and changes nothing', async () => {
    const res = await server.request('PATCH', `/api/users/${ana.user._id}`, {
      token: ben.token,
      body: { displayName: 'hacked', bio: 'hacked' },
    });
    expect(res.status).toBe(403);
    const bodyUserId = await server.request('PATCH', `/api/users/${ben.user._id}`, {
      token: ben.token,
      body: { userId: ana.user._id, bio: 'hacked' },
    });
    expect(bodyUserId.status).toBe(403);
    const anaNow = await server.request('GET', '/api/auth/me', { token: ana.token });
    expect(anaNow.body.displayName).toBe('ana');
    expect(anaNow.body.bio).toBe('');
    const benNow = await server.request('GET', '/api/auth/me', { token: ben.token });
    expect(benNow.body.bio).toBe('');
  });

  it('limits text edits to 40 characters', async () => {
    const owner = await buildUser(server);
    const at = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body: { bio: 'b'.repeat(40) } });
    expect(at.status).toBe(200);
    const over = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body: { bio: 'b'.repeat(41) } });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('Bio must be at most 40 characters.');
  });

  it('ignores a blank password and enforces unique usernames and emails', async () => {
    const owner = await buildUser(server);
    const blank = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body: { password: '' } });
    expect(blank.status).toBe(200);
    expect(blank.headers.get('x-auth-token')).toBeNull();
    const login = await server.request('POST', '/api/auth/login', { body: { email: owner.user.email, password: owner.password } });
    expect(login.status).toBe(200);

    for (const body of [{ username: 'ANA' }, { email: 'Ben@Example.com', currentPassword: owner.password }]) {
      const res = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Username or Email already exists.');
    }
  });

  it.each([
    ['displayName', 'Anonymous', "'Anonymous' is kept for anonymous gifts: choose another display name."],
    ['displayName', '  anonymous ', "'Anonymous' is kept for anonymous gifts: choose another display name."],
    ['displayName', 'ＡＮＯＮＹＭＯＵＳ', "'Anonymous' is kept for anonymous gifts: choose another display name."],
    ['displayName', '\u0410nonymous', "'Anonymous' is kept for anonymous gifts: choose another display name."], // Cyrillic А
    ['displayName', 'Anonymóus', "'Anonymous' is kept for anonymous gifts: choose another display name."],
    ['displayName', 'Ana \u202Esuomynona', 'Display name may not contain characters that change the text direction.'],
    ['displayName', 'Ana\u2066x\u2069', 'Display name may not contain characters that change the text direction.'],
    ['displayName', 'Ana\u200B', 'Display name may not contain invisible characters.'],
    ['displayName', 'Ana\uFEFFB', 'Display name may not contain invisible characters.'],
    ['displayName', 'Ana\nB', 'Display name may not contain control characters.'],
    ['username', 'ANONYMOUS', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['username', 'ＡＮＯＮＹＭＯＵＳ', "'Anonymous' is kept for anonymous gifts: choose another username."],
    ['username', 'ana\u202E', 'Username may not contain characters that change the text direction.'],
    ['username', 'ana\u200Bx', 'Username may not contain invisible characters.'],
    ['bio', 'Hi \u202Eereht', 'Bio may not contain characters that change the text direction.'],
    ['bio', 'Hi\u0000there', 'Bio may not contain control characters.'],
    ['location', 'Lyon\u0085', 'Location may not contain control characters.'],
  ])('refuses %s %j and changes nothing', async (field, value, message) => {
    const owner = await buildUser(server);
    const res = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body: { [field]: value } });
    expect(res.status).toBe(400);
    // a NUL is refused before any route, by the one input check
    expect(res.body.message).toBe(value.includes('\u0000') ? 'Text may not contain NUL characters.' : message);
    const me = await server.request('GET', '/api/auth/me', { token: owner.token });
    expect(me.body[field]).toBe(owner.user[field as 'username']);
  });

  it('keeps names that only look a little like it, and ordinary accents and scripts', async () => {
    const owner = await buildUser(server);
    for (const displayName of ['Anonymous Fan', 'Anon', 'Anonymousse', 'Zoë Ångström', '匿名さん', 'Ана']) {
      const res = await server.request('PATCH', `/api/users/${owner.user._id}`, { token: owner.token, body: { displayName } });
      expect(res.status, displayName).toBe(200);
      expect(res.body.displayName).toBe(displayName);
    }
  });

  it('rejects wrong types with a 4xx', async () => {
    const res = await server.request('PATCH', `/api/users/${ana.user._id}`, { token: ana.token, body: { bio: 12 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('bio: must be a string');
  });
});
