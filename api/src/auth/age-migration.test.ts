import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { migrationPlaces, migrationsUpTo } from '../testing/migration-places.js';

/**
 * The age gate's migration on a database that already has users: they were never asked, so they
 * come out not marked adult and with no year, and they stay (with what references them), both ways.
 */
describe('the age gate migration', () => {
  const { options, later } = migrationPlaces('giftlink_age');

  it('leaves existing accounts without a year and not marked adult, and keeps them, up and down', async () => {
    const upTo = migrationsUpTo('AgeGate1765400300000');
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
    const count = async (table: string) => Number((await source.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

    await source.runMigrations({ transaction: 'each' });
    const [ada] = await source.query(`SELECT adult, birth_year FROM users WHERE id = 'u1'`);
    expect({ adult: Boolean(ada.adult), birthYear: ada.birth_year }).toEqual({ adult: false, birthYear: null });
    expect([await count('users'), await count('invites')]).toEqual([1, 1]);

    await source.undoLastMigration({ transaction: 'each' });
    const runner = source.createQueryRunner();
    const columns = (await runner.getTable('users'))!.columns.map((c) => c.name);
    await runner.release();
    expect(columns.filter((c) => c === 'adult' || c === 'birth_year')).toEqual([]);
    expect([await count('users'), await count('invites')]).toEqual([1, 1]);
  });
});
