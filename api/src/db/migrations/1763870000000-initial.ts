import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Written with the Table API so the same migration runs on SQLite and PostgreSQL. */
export class Initial1763870000000 implements MigrationInterface {
  name = 'Initial1763870000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const id = { name: 'id', type: 'varchar', length: '36', isPrimary: true };
    const ref = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });

    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          id,
          { name: 'username', type: 'varchar', length: '40', isUnique: true },
          { name: 'email', type: 'varchar', length: '40', isUnique: true },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'display_name', type: 'varchar', length: '40', default: "''" },
          { name: 'bio', type: 'varchar', length: '40', default: "''" },
          { name: 'location', type: 'varchar', length: '40', default: "''" },
          { name: 'profile_picture', type: 'varchar', length: '255', isNullable: true },
          { name: 'cover_picture', type: 'varchar', length: '255', isNullable: true },
          { name: 'is_subscribed', type: 'boolean', default: false },
          { name: 'stripe_customer_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'balance_cents', type: 'bigint', default: 0 },
          { name: 'token_version', type: 'integer', default: 0 },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
        checks: [{ name: 'chk_users_balance', expression: 'balance_cents >= 0' }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'invites',
        columns: [
          id,
          { name: 'code', type: 'varchar', length: '64', isUnique: true },
          ref('owner_id', true),
          { name: 'status', type: 'varchar', length: '16', default: "'available'" },
          ref('used_by_id', true),
          { name: 'created_at', type: ts },
          { name: 'used_at', type: ts, isNullable: true },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.createIndex('invites', new TableIndex({ name: 'idx_invites_owner', columnNames: ['owner_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('invites');
    await q.dropTable('users');
  }
}
