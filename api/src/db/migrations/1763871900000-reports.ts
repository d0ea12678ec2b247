import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Reports and suspension. `reports`: what a member reported (a message or a whole
 * conversation), why, the reported text as it was then (JSON, so later edits or deletion change
 * nothing), the reporter and the reported account (worked out by the server; only moderators see
 * it), and whether a moderator resolved it. No foreign keys: a report outlives what it is about.
 * `users.suspended_at` / `users.suspension_reason`: set by `npm run moderation -- suspend`; plain
 * `ALTER TABLE … ADD COLUMN` as in InviteRefill1763871300000 (the Table API would rebuild `users`
 * on SQLite and cascade-delete rows).
 */
export class Reports1763871900000 implements MigrationInterface {
  name = 'Reports1763871900000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'reports',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'reporter_id', type: 'varchar', length: '36' },
          { name: 'reported_id', type: 'varchar', length: '36' },
          { name: 'conversation_id', type: 'varchar', length: '36' },
          { name: 'message_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'reason', type: 'varchar', length: '16' },
          { name: 'note', type: 'varchar', length: '500', isNullable: true },
          { name: 'content', type: 'text' },
          { name: 'status', type: 'varchar', length: '16', default: "'open'" },
          { name: 'created_at', type: ts },
          { name: 'resolved_at', type: ts, isNullable: true },
        ],
      }),
    );
    await q.createIndex('reports', new TableIndex({ name: 'idx_reports_status_time', columnNames: ['status', 'created_at'] }));
    await q.query(`ALTER TABLE users ADD COLUMN suspended_at ${ts} NULL`);
    await q.query('ALTER TABLE users ADD COLUMN suspension_reason varchar(500) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN suspension_reason');
    await q.query('ALTER TABLE users DROP COLUMN suspended_at');
    await q.dropIndex('reports', 'idx_reports_status_time');
    await q.dropTable('reports');
  }
}
