import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Alerts (api/src/alerts/): `alerts`, the outbox each event writes in its own transaction, with
 * the email's state per row (pending, sent, skipped; a claim's lease and the batch it went in),
 * and `alert_preferences`, a user's switches per kind and channel (no row: the default).
 * New tables only: `users` is not touched.
 */
export class Alerts1763872800000 implements MigrationInterface {
  name = 'Alerts1763872800000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const userFk = { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' };
    await q.createTable(
      new Table({
        name: 'alerts',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'kind', type: 'varchar', length: '32' },
          { name: 'conversation_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'payload', type: 'varchar', length: '2000' },
          { name: 'created_at', type: ts },
          { name: 'email_state', type: 'varchar', length: '16' },
          { name: 'email_attempts', type: 'int', default: 0 },
          { name: 'email_claimed_until', type: ts, isNullable: true },
          { name: 'email_batch', type: 'varchar', length: '36', isNullable: true },
          { name: 'email_sent_at', type: ts, isNullable: true },
        ],
        foreignKeys: [userFk],
      }),
    );
    // The job's scan: pending emails, oldest first; and a conversation's last email, for batching.
    await q.createIndex('alerts', new TableIndex({ name: 'idx_alerts_email_pending', columnNames: ['email_state', 'created_at'] }));
    await q.createIndex('alerts', new TableIndex({ name: 'idx_alerts_user_conversation', columnNames: ['user_id', 'conversation_id'] }));
    await q.createTable(
      new Table({
        name: 'alert_preferences',
        columns: [
          { name: 'user_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '32', isPrimary: true },
          { name: 'channel', type: 'varchar', length: '16', isPrimary: true },
          { name: 'enabled', type: 'boolean' },
        ],
        foreignKeys: [userFk],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('alert_preferences');
    await q.dropIndex('alerts', 'idx_alerts_user_conversation');
    await q.dropIndex('alerts', 'idx_alerts_email_pending');
    await q.dropTable('alerts');
  }
}
