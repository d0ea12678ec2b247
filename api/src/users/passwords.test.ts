import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_HASH_COSTS } from '../config.js';
import { runCommand } from '../testing/commands.js';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';
import { UserEntity } from './entity.js';
import { hashPassword } from './passwords.js';

let server: TestServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-passwords-'));
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const storedHash = async (id: string) =>
  (await server.deps.db.manager.findOne(UserEntity, { where: { id }, select: { id: true, passwordHash: true } }))!.passwordHash;

const login = (email: string, password: string) => server.request('POST', '/api/auth/login', { body: { email, password } });

describe('password hash cost', () => {
  it('is the cheapest argon2id in test servers', async () => {
    const who = await buildUser(server);
    expect(await storedHash(who.user._id)).toMatch(/^\$argon2id\$v=19\$m=8,p=1,t=1\$/);
    expect((await login(who.user.email, who.password)).status).toBe(200);
  });

  it('still verifies hashes made at the standard cost', async () => {
    const who = await buildUser(server);
    const standard = await hashPassword('standard-pass', PASSWORD_HASH_COSTS.standard);
    expect(standard).toMatch(/\$m=65536,p=4,t=3\$/);
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, { passwordHash: standard }));
    expect((await login(who.user.email, 'standard-pass')).status).toBe(200);
    expect((await login(who.user.email, who.password)).status).toBe(400);
  });

  it('test cost is refused at start-up with NODE_ENV=production', async () => {
    const run = await runCommand('main.ts', { NODE_ENV: 'production', PASSWORD_HASH_COST: 'test', DATA_DIR: dir, PORT: '0' }, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PASSWORD_HASH_COST=test is for tests only and refused with NODE_ENV=production');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
