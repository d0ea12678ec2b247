import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_BIRTH_DATE, newInviteCode, startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const register = async (username: string, email: string) =>
  server.request('POST', '/api/auth/register', {
    body: { username, email, password: 'secret-pass', dateOfBirth: ADULT_BIRTH_DATE, inviteCode: await newInviteCode(server) },
  });

describe('the email rule', () => {
  it("registers an address a browser's email field accepts, as short as the product's minimum (a@b.c)", async () => {
    const res = await register('shortmail', 'a@b.c');
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe('a@b.c');
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'A@B.C', password: 'secret-pass' } });
    expect(login.status).toBe(200);
  });

  it('still refuses what is not an address, and what is under 5 characters', async () => {
    for (const email of ['abcde', 'a b@c.d', '@bc.de', 'ab@.c']) {
      const res = await register(`bad${email.length}${Math.floor(Math.random() * 1e6)}`, email);
      expect(res.status, email).toBe(400);
    }
    const short = await register('tooshort', 'a@b');
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('Email must be 5-35 characters.');
  });
});
