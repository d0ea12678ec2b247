import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserEntity } from '../users/entity.js';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';
import { GroupCommitter } from './group-commit.js';

// SQLite only: PostgreSQL's transactions do not go through the group committer.
const sqlite = !process.env.DATABASE_URL;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A flush the test lets end: how long the disk takes is up to it. */
function heldFlushes() {
  const waiting: (() => void)[] = [];
  return {
    flush: () => new Promise<void>((resolve) => waiting.push(resolve)),
    started: () => waiting.length,
    endNext: () => waiting.shift()?.(),
  };
}

const bioOf = async (id: string) => (await server.deps.db.manager.findOneByOrFail(UserEntity, { id })).bio;
const settledYet = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise((resolve) => setTimeout(() => resolve(false), 50)),
  ]);

describe.runIf(sqlite)('the group committer and the disk', () => {
  it('answers a transaction only after a flush that began after its COMMIT, in the order the works ran', async () => {
    const { user } = await buildUser(server);
    const disk = heldFlushes();
    const committer = new GroupCommitter(server.deps.db.source, disk.flush);

    const first = committer.transaction((em) => em.update(UserEntity, { id: user._id }, { bio: 'first' }));
    const refused = committer.transaction(async () => {
      throw new Error('refused');
    });
    await expect.poll(disk.started).toBe(1);
    // Committed (another connection sees it) but not yet durable: nobody has heard of it.
    expect(await bioOf(user._id)).toBe('first');
    expect(await settledYet(first)).toBe(false);
    expect(await settledYet(refused)).toBe(false);

    // A second group commits while the first flush waits for the disk; the flush covering it begins after.
    const second = committer.transaction((em) => em.update(UserEntity, { id: user._id }, { bio: 'second' }));
    await expect.poll(() => bioOf(user._id)).toBe('second');
    const durable = committer.whenDurable();
    disk.endNext();
    await first;
    await expect(refused).rejects.toThrow('refused');
    expect(await settledYet(second)).toBe(false);
    expect(await settledYet(durable)).toBe(false);

    await expect.poll(disk.started).toBe(1);
    disk.endNext();
    await second;
    await expect.poll(disk.started).toBe(1);
    disk.endNext();
    await durable;
    expect(committer.commits).toBe(3);
    // Nothing left to flush: it settles at once.
    expect(await settledYet(committer.whenDurable())).toBe(true);
  });
});
