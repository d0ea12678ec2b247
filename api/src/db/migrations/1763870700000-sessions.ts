import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Server-side sessions (auth/entity.ts): every token names a row here, and logout or a password
 * change revokes rows. They replace `users.token_version`, the old "a password change bumps a
 * number" mechanism, which could not end one session (logout) without ending them all.
 *
 * Tokens from before this migration carry no session id and stop working: their users sign in
 * again. The column goes (and comes back in `down`) with plain `ALTER TABLE`, which SQLite
 * (3.35+) and PostgreSQL both run in place; TypeORM's `dropColumn`/`addColumn` rebuild the users
 * table on SQLite, whose implicit DELETE would cascade into the tables that reference users.
 */
export class Sessions1763870700000 implements MigrationInterface {
  name = 'Sessions1763870700000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'created_at', type: ts },
          { name: 'expires_at', type: ts },
          { name: 'revoked_at', type: ts, isNullable: true },
          { name: 'last_seen_at', type: ts },
          { name: 'user_agent', type: 'varchar', length: '255', isNullable: true },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await q.createIndex('sessions', new TableIndex({ name: 'idx_sessions_user', columnNames: ['user_id'] }));
    await q.query('ALTER TABLE users DROP COLUMN token_version');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0');
    await q.dropIndex('sessions', 'idx_sessions_user');
    await q.dropTable('sessions');
  }
}
