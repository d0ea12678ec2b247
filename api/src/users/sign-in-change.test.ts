import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD_WRONG, CURRENT_PASSWORD_REQUIRED } from '../../contract/texts.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const patch = (who: TestUser, body: Record<string, unknown>) =>
  server.request('PATCH', `/api/users/${who.user._id}`, { token: who.token, body });
const login = (email: string, password: string) => server.request('POST', '/api/auth/login', { body: { email, password } });

describe('changing how one signs in asks for the current password', () => {
  it.each([
    ['email', { email: 'taken-over@example.com' }],
    ['password', { password: 'attacker-pass-1' }],
    ['email and password', { email: 'taken-over2@example.com', password: 'attacker-pass-2' }],
  ])('refuses a new %s without it (400) or with a wrong one (403), and changes nothing', async (_, change) => {
    const owner = await buildUser(server);
    const missing = await patch(owner, { ...change, bio: 'changed' });
    expect(missing).toMatchObject({ status: 400, body: { error: 'current_password_required', message: CURRENT_PASSWORD_REQUIRED } });
    for (const currentPassword of ['', 'not-my-password']) {
      const res = await patch(owner, { ...change, bio: 'changed', currentPassword });
      expect(res.status).toBe(currentPassword ? 403 : 400);
      expect(res.body).toMatchObject(
        currentPassword ? { error: 'wrong_password', message: ACCOUNT_PASSWORD_WRONG } : { message: CURRENT_PASSWORD_REQUIRED },
      );
      expect(res.headers.get('x-auth-token')).toBeNull();
    }
    // Nothing changed: the same profile, the old password still signs in, the session still works.
    const me = await server.request('GET', '/api/auth/me', { token: owner.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: owner.user.email, bio: '' });
    expect((await login(owner.user.email, owner.password)).status).toBe(200);
    if ('password' in change) expect((await login(owner.user.email, change.password)).status).toBe(400);
  });

  it('changes the email with the right current password', async () => {
    const owner = await buildUser(server);
    const res = await patch(owner, { email: 'New.Address@Example.com', currentPassword: owner.password });
    expect(res).toMatchObject({ status: 200, body: { email: 'new.address@example.com' } });
    expect((await login('new.address@example.com', owner.password)).status).toBe(200);
    expect((await login(owner.user.email, owner.password)).status).toBe(400);
  });

  it('changes the password with the right current password, and answers a new session', async () => {
    const owner = await buildUser(server);
    const res = await patch(owner, { password: 'brand-new-pass', currentPassword: owner.password });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-auth-token')).toBeTruthy();
    expect((await login(owner.user.email, 'brand-new-pass')).status).toBe(200);
    expect((await login(owner.user.email, owner.password)).status).toBe(400);
  });

  it('needs no password for the other fields, for the same email again, or for a blank password', async () => {
    const owner = await buildUser(server);
    const res = await patch(owner, {
      displayName: 'Pat',
      bio: 'hello',
      location: 'Oslo',
      showPresence: true,
      email: owner.user.email.toUpperCase(),
      password: '',
    });
    expect(res).toMatchObject({ status: 200, body: { displayName: 'Pat', bio: 'hello', location: 'Oslo', showPresence: true } });
    expect(res.headers.get('x-auth-token')).toBeNull();
  });
});

describe('showPresence', () => {
  it('is off for a new account, private, and set by PATCH', async () => {
    const [owner, other] = [await buildUser(server), await buildUser(server)];
    expect(owner.user.showPresence).toBe(false);
    expect((await server.request('GET', '/api/auth/me', { token: owner.token })).body).toMatchObject({ showPresence: false });
    expect((await patch(owner, { showPresence: true })).body).toMatchObject({ showPresence: true });
    expect((await server.request('GET', '/api/auth/me', { token: owner.token })).body).toMatchObject({ showPresence: true });
    const seen = await server.request('GET', `/api/users?userId=${owner.user._id}`, { token: other.token });
    expect(seen.body).not.toHaveProperty('showPresence');
    expect((await patch(owner, { showPresence: 'yes' })).status).toBe(400);
  });
});
