import BetterSqlite3 from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserEntity } from '../users/entity.js';
import { buildUser, buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { GroupCommitter } from './group-commit.js';
import { sqliteHandle } from './sqlite-handle.js';

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

describe.runIf(sqlite)('replayable works in a group', () => {
  const committer = () => new GroupCommitter(server.deps.db.source, async () => undefined);
  /** A work that sets `bio` on `id`, counting its runs, and throws after writing when `fail` says so. */
  const setBio =
    (id: string, bio: string, runs: Map<string, number>, fail = false) =>
    async (em: EntityManager) => {
      runs.set(bio, (runs.get(bio) ?? 0) + 1);
      await em.update(UserEntity, { id }, { bio });
      if (fail) throw new Error(`refused ${bio}`);
      return bio;
    };

  /**
   * One group of three replayable works on three new users' bios, 'kept', 'undone' (which throws
   * after writing) and 'also kept'; the middle one is replayable only if `middleReplayable`.
   */
  async function threeWorks(prefix: string, middleReplayable: boolean) {
    const users = await buildUsers(server, 3, prefix);
    const [a, b, c] = users;
    const runs = new Map<string, number>();
    const group = committer();
    const settled = await Promise.allSettled([
      group.transaction(setBio(a.user._id, 'kept', runs), { replayable: true }),
      group.transaction(setBio(b.user._id, 'undone', runs, true), { replayable: middleReplayable }),
      group.transaction(setBio(c.user._id, 'also kept', runs), { replayable: true }),
    ]);
    return { settled, runs, group, bios: () => Promise.all(users.map((u) => bioOf(u.user._id))) };
  }

  it('run once each when none throws, each seeing what the ones before it wrote', async () => {
    const [a, b] = await buildUsers(server, 2, 'rp');
    const runs = new Map<string, number>();
    const group = committer();
    const seen = group.transaction(setBio(a.user._id, 'first', runs), { replayable: true });
    const after = group.transaction(async (em) => (await em.findOneByOrFail(UserEntity, { id: a.user._id })).bio, { replayable: true });
    const other = group.transaction(setBio(b.user._id, 'second', runs), { replayable: true });
    expect(await Promise.all([seen, after, other])).toEqual(['first', 'first', 'second']);
    expect(Object.fromEntries(runs)).toEqual({ first: 1, second: 1 });
    expect(group.commits).toBe(1);
  });

  it('when one throws, are all run again, each in its own savepoint: only the one that threw is rolled back', async () => {
    const { settled, bios, runs, group } = await threeWorks('rf', true);
    const [first, broken, last] = settled;
    expect([first.status, broken.status, last.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((broken as PromiseRejectedResult).reason).toEqual(new Error('refused undone'));
    expect(await bios()).toEqual(['kept', '', 'also kept']);
    // The first pass stopped at the one that threw; the second ran every work once more.
    expect(Object.fromEntries(runs)).toEqual({ kept: 2, undone: 2, 'also kept': 1 });
    expect(group.commits).toBe(1);
  });

  it('beside a work that is not replayable, are each run once in its own savepoint', async () => {
    const { settled, bios, runs } = await threeWorks('rm', false);
    const [first, broken, last] = settled;
    expect([first.status, broken.status, last.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await bios()).toEqual(['kept', '', 'also kept']);
    expect(Object.fromEntries(runs)).toEqual({ kept: 1, undone: 1, 'also kept': 1 });
  });

  /** A committer whose flushes the test ends, after a first work that committed and now waits for the disk. */
  async function diskBusy(prefix: string) {
    const users = await buildUsers(server, 3, prefix);
    const disk = heldFlushes();
    const group = new GroupCommitter(server.deps.db.source, disk.flush);
    const runs = new Map<string, number>();
    const first = group.transaction(setBio(users[0].user._id, 'first', runs), { replayable: true });
    await expect.poll(disk.started).toBe(1);
    expect(group.commits).toBe(1);
    return { ids: users.map((u) => u.user._id), disk, group, runs, first };
  }

  it('asked for while the disk is busy, run at once in one open transaction that commits when the flush ends', async () => {
    const { ids, disk, group, runs, first } = await diskBusy('rg');
    const second = group.transaction(setBio(ids[1], 'second', runs), { replayable: true });
    await expect.poll(() => runs.get('second')).toBe(1);
    const third = group.transaction(setBio(ids[2], 'third', runs), { replayable: true });
    await expect.poll(() => runs.get('third')).toBe(1);
    // They ran, and are not committed: a reader sees neither, and nobody has heard.
    expect([await bioOf(ids[1]), await bioOf(ids[2])]).toEqual(['', '']);
    expect(group.commits).toBe(1);

    disk.endNext();
    expect(await first).toBe('first');
    // One COMMIT for both, then a flush of its own before either is answered.
    await expect.poll(() => group.commits).toBe(2);
    expect([await bioOf(ids[1]), await bioOf(ids[2])]).toEqual(['second', 'third']);
    await expect.poll(disk.started).toBe(1);
    expect(await settledYet(second)).toBe(false);
    disk.endNext();
    expect(await Promise.all([second, third])).toEqual(['second', 'third']);
    expect(Object.fromEntries(runs)).toEqual({ first: 1, second: 1, third: 1 });
  });

  it('when one throws in a transaction grown while the disk was busy, run again with every work before it', async () => {
    const { ids, disk, group, runs, first } = await diskBusy('rt');
    const kept = group.transaction(setBio(ids[1], 'kept', runs), { replayable: true });
    await expect.poll(() => runs.get('kept')).toBe(1);
    const broken = group.transaction(setBio(ids[2], 'undone', runs, true), { replayable: true });
    // The work that threw rolled the transaction back; both ran again in savepoints, and it committed at once.
    await expect.poll(() => group.commits).toBe(2);
    expect(Object.fromEntries(runs)).toEqual({ first: 1, kept: 2, undone: 2 });
    expect([await bioOf(ids[1]), await bioOf(ids[2])]).toEqual(['kept', '']);

    disk.endNext();
    await first;
    await expect.poll(disk.started).toBe(1);
    disk.endNext();
    expect(await kept).toBe('kept');
    await expect(broken).rejects.toThrow('refused undone');
  });

  it('while another process writes the same file, commit group by group even while the disk is busy', async () => {
    const { ids, disk, group, runs, first } = await diskBusy('rs');
    // Another process's writer (several nodes on one file) commits: it must not wait on a transaction held open through a flush.
    const other = new BetterSqlite3(sqliteHandle(server.deps.db.source).name);
    try {
      other.prepare('UPDATE users SET bio = ? WHERE id = ?').run('elsewhere', ids[2]);
    } finally {
      other.close();
    }
    const second = group.transaction(setBio(ids[1], 'second', runs), { replayable: true });
    // Committed at once, the first flush still waiting: a reader sees it, nobody has heard yet.
    await expect.poll(() => group.commits).toBe(2);
    expect(await bioOf(ids[1])).toBe('second');
    expect(await settledYet(second)).toBe(false);
    const third = group.transaction(setBio(ids[2], 'third', runs), { replayable: true });
    await expect.poll(() => group.commits).toBe(3);
    expect(await bioOf(ids[2])).toBe('third');

    // The first flush, then one for both groups that committed while it waited.
    for (let flushes = 0; flushes < 2; flushes += 1) {
      await expect.poll(disk.started).toBe(1);
      disk.endNext();
    }
    expect(await Promise.all([first, second, third])).toEqual(['first', 'second', 'third']);
  });
});
