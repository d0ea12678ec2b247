import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnInviteView } from '../../contract/invites.js';
import { firstInvite } from './service.js';
import { ADULT_BIRTH_DATE, buildUser, startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INVITES_PER_USER: '3' });
});
afterAll(() => server?.close());

describe('invites', () => {
  it('gives the first start one invite, reused until someone registers', async () => {
    const first = await firstInvite(server.deps.db);
    expect(first).not.toBeNull();
    expect((await firstInvite(server.deps.db))?.code).toBe(first!.code);
    const accept = await server.request('GET', `/invites/accept/${first!.code}`);
    expect(accept.body).toHaveLength(1);
    expect(accept.body[0]).toMatchObject({ code: first!.code, status: 'available' });
    const res = await server.request('POST', '/api/auth/register', {
      body: {
        username: 'founder',
        email: 'founder@example.com',
        password: 'founder',
        dateOfBirth: ADULT_BIRTH_DATE,
        inviteCode: first!.code,
      },
    });
    expect(res.status).toBe(201);
    expect(await firstInvite(server.deps.db)).toBeNull();
    expect((await server.request('GET', `/invites/accept/${first!.code}`)).body).toEqual([]);
  });

  it('gives every account its own invites, listed only to it', async () => {
    const owner = await buildUser(server);
    const other = await buildUser(server);
    const mine = await server.request('GET', `/invites/${owner.user._id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(3);
    for (const invite of mine.body) {
      expect(invite.status).toBe('available');
      expect(invite.url).toBe(`${server.deps.config.publicUrl}/invite/${invite.code}`);
      expect(invite.usedBy).toBeNull();
    }
    expect((await server.request('GET', `/invites/${owner.user._id}`, { token: other.token })).status).toBe(403);
    expect((await server.request('GET', `/invites/${owner.user._id}`)).status).toBe(401);

    const code = mine.body[0].code;
    const joined = await server.request('POST', '/api/auth/register', {
      body: { username: 'friend1', email: 'friend1@example.com', password: 'friend', dateOfBirth: ADULT_BIRTH_DATE, inviteCode: code },
    });
    expect(joined.status).toBe(201);
    const after = await server.request('GET', `/invites/${owner.user._id}`, { token: owner.token });
    const used = OwnInviteView.array()
      .parse(after.body)
      .find((i) => i.code === code)!;
    expect(used).toMatchObject({ status: 'used', usedBy: 'friend1' });
    // Who joined is the inviter's to see: the public check of the code says nothing of it.
    expect((await server.request('GET', `/invites/accept/${code}`)).body).toEqual([]);
  });

  it('answers an empty list for an unknown invite', async () => {
    const res = await server.request('GET', '/invites/accept/not-a-real-code');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
