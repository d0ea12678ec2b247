import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Web Push (api/src/push/): `push_subscriptions`, a user's devices (one row per endpoint), and
 * the push's own state on each outbox row of `alerts`, beside the email's (pending, sent,
 * skipped; a claim's lease and the batch it went in). Rows written before start pending.
 */
export class Push1763872900000 implements MigrationInterface {
  name = 'Push1763872900000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'push_subscriptions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'endpoint', type: 'varchar', length: '2048', isUnique: true },
          { name: 'p256dh', type: 'varchar', length: '100' },
          { name: 'auth', type: 'varchar', length: '32' },
          { name: 'device', type: 'varchar', length: '100' },
          { name: 'created_at', type: ts },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await q.createIndex('push_subscriptions', new TableIndex({ name: 'idx_push_subscriptions_user', columnNames: ['user_id'] }));
    await q.addColumns('alerts', [
      new TableColumn({ name: 'push_state', type: 'varchar', length: '16', default: "'pending'" }),
      new TableColumn({ name: 'push_attempts', type: 'int', default: 0 }),
      new TableColumn({ name: 'push_claimed_until', type: ts, isNullable: true }),
      new TableColumn({ name: 'push_batch', type: 'varchar', length: '36', isNullable: true }),
      new TableColumn({ name: 'push_sent_at', type: ts, isNullable: true }),
    ]);
    await q.createIndex('alerts', new TableIndex({ name: 'idx_alerts_push_pending', columnNames: ['push_state', 'created_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('alerts', 'idx_alerts_push_pending');
    for (const c of ['push_sent_at', 'push_batch', 'push_claimed_until', 'push_attempts', 'push_state']) await q.dropColumn('alerts', c);
    await q.dropIndex('push_subscriptions', 'idx_push_subscriptions_user');
    await q.dropTable('push_subscriptions');
  }
}
