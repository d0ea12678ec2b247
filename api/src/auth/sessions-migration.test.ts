import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { migrationPlaces, migrationsUpTo } from '../testing/migration-places.js';

/**
 * The sessions migration replaces `users.token_version` on a database that already has users:
 * the users (and the rows that reference them) stay, both ways. On SQLite a table rebuild for the
 * column would cascade its implicit DELETE into every table that references users.
 */
describe('the sessions migration', () => {
  const { options, later } = migrationPlaces('giftlink_mig');

  it('keeps the users and what references them, up and down', async () => {
    const upTo = migrationsUpTo('Sessions1763870700000');
    const database = await options();
    const before = await new DataSource({ ...database, migrations: upTo.slice(0, -1) }).initialize();
    try {
      await before.runMigrations({ transaction: 'each' });
      await before.query(
        `INSERT INTO users (id, username, email, password_hash, created_at, updated_at) VALUES ('u1', 'ada', 'ada@example.com', 'x', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      );
      await before.query(`INSERT INTO invites (id, code, owner_id, created_at) VALUES ('i1', 'code1', 'u1', CURRENT_TIMESTAMP)`);
    } finally {
      await before.destroy();
    }
    const source = await new DataSource({ ...database, migrations: upTo }).initialize();
    later(() => source.destroy());

    const state = async () => {
      const runner = source.createQueryRunner();
      try {
        const users = await runner.getTable('users');
        const count = async (table: string) => Number((await runner.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
        return {
          tokenVersion: users!.columns.some((c) => c.name === 'token_version'),
          sessions: await runner.hasTable('sessions'),
          users: await count('users'),
          invites: await count('invites'),
        };
      } finally {
        await runner.release();
      }
    };

    await source.runMigrations({ transaction: 'each' });
    expect(await state()).toEqual({ tokenVersion: false, sessions: true, users: 1, invites: 1 });
    await source.undoLastMigration({ transaction: 'each' });
    expect(await state()).toEqual({ tokenVersion: true, sessions: false, users: 1, invites: 1 });
  });
});
