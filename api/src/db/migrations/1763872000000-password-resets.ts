import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Password reset by email (auth/reset.ts): one row per reset link sent. Only the
 * SHA-256 of the link's token is stored (`token_hash`), never the token; a row is good once
 * (`used_at`) and until `expires_at` (30 minutes). A new request for the same user marks the
 * older rows used. A new table only: `users` is not touched.
 */
export class PasswordResets1763872000000 implements MigrationInterface {
  name = 'PasswordResets1763872000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'password_resets',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'created_at', type: ts },
          { name: 'expires_at', type: ts },
          { name: 'used_at', type: ts, isNullable: true },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await q.createIndex('password_resets', new TableIndex({ name: 'idx_password_resets_user', columnNames: ['user_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('password_resets', 'idx_password_resets_user');
    await q.dropTable('password_resets');
  }
}
