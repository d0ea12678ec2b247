import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `push_subscriptions.session_id`: the session that subscribed the device. Ending that session
 * deletes the device in the same transaction (auth/session-store.ts), and deleting the session row
 * (an expired one, cleared at the next sign-in) deletes it by the foreign key. Rows from before
 * stay, with no session: they keep their alerts until removed in Settings or by the push service.
 */
export class PushSessions1765400100000 implements MigrationInterface {
  name = 'PushSessions1765400100000';

  async up(q: QueryRunner): Promise<void> {
    // Plain ADD COLUMN runs in place on both databases, and both take a foreign key on a nullable column so.
    await q.query('ALTER TABLE push_subscriptions ADD COLUMN session_id varchar(36) NULL REFERENCES sessions(id) ON DELETE CASCADE');
    await q.createIndex('push_subscriptions', new TableIndex({ name: 'idx_push_subscriptions_session', columnNames: ['session_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('push_subscriptions', 'idx_push_subscriptions_session');
    // SQLite drops no column a foreign key names in place: TypeORM rebuilds the table (nothing references it).
    await q.dropColumn('push_subscriptions', 'session_id');
  }
}
