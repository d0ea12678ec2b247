import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { migrationPlaces, migrationsUpTo } from '../testing/migration-places.js';

/** `push_subscriptions.session_id`: devices from before keep no session, and deleting a session deletes its devices; down and up again. */
describe('the push sessions migration', () => {
  const { options, later } = migrationPlaces('giftlink_mig');

  it('keeps the devices from before, with no session, and ends a device with its session', async () => {
    const upTo = migrationsUpTo('PushSessions1765400100000');
    const database = await options();
    const before = await new DataSource({ ...database, migrations: upTo.slice(0, -1) }).initialize();
    await before.runMigrations({ transaction: 'each' });
    const now = 'CURRENT_TIMESTAMP';
    await before.query(
      `INSERT INTO users (id, username, email, password_hash, created_at, updated_at) VALUES ('u1', 'ada', 'ada@example.com', 'x', ${now}, ${now})`,
    );
    await before.query(
      `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES ('s1', 'u1', ${now}, ${now}, ${now})`,
    );
    const device = (id: string) =>
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device, created_at) VALUES ('${id}', 'u1', 'https://push.example/${id}', 'k', 'a', 'Chrome on macOS', ${now})`;
    await before.query(device('old'));
    await before.destroy();

    const source = await new DataSource({ ...database, migrations: upTo }).initialize();
    later(() => source.destroy());
    await source.runMigrations({ transaction: 'each' });
    await source.query(device('new'));
    await source.query(`UPDATE push_subscriptions SET session_id = 's1' WHERE id = 'new'`);
    await source.query(`DELETE FROM sessions WHERE id = 's1'`);
    expect(await source.query('SELECT id, session_id FROM push_subscriptions')).toEqual([{ id: 'old', session_id: null }]);

    await source.undoLastMigration({ transaction: 'each' });
    expect(await source.query('SELECT id FROM push_subscriptions')).toEqual([{ id: 'old' }]);
    await source.runMigrations({ transaction: 'each' });
    expect(await source.query('SELECT id, session_id FROM push_subscriptions')).toEqual([{ id: 'old', session_id: null }]);
  });
});
