import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserEntity } from '../users/entity.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the database', () => {
  it('shows reads outside a transaction only committed data, while a transaction is open', async () => {
    const [user] = await buildUsers(server, 1, 'iso');
    const id = user.user._id;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));

    const tx = server.deps.db.transaction(async (em) => {
      await em.update(UserEntity, { id }, { bio: 'not committed' });
      entered();
      await gate;
      throw new Error('roll back');
    });
    await inside;
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id })).bio).toBe('');
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id })).bio).toBe('');
  });

  it('shows committed writes to the next read at once', async () => {
    const [user] = await buildUsers(server, 1, 'iso2');
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: user.user._id }, { bio: 'committed' }));
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id: user.user._id })).bio).toBe('committed');
  });
});
