import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Payouts (api/src/payouts/): `payout_accounts`, a user's connected account at the payments
 * provider with the status its latest account update left (not started has no row).
 */
export class PayoutAccounts1765100000000 implements MigrationInterface {
  name = 'PayoutAccounts1765100000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'payout_accounts',
        columns: [
          { name: 'user_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'account_id', type: 'varchar', length: '64', isUnique: true },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'requirements', type: 'text' },
          { name: 'bank_last4', type: 'varchar', length: '4', isNullable: true },
          { name: 'updated_at', type: ts },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('payout_accounts');
  }
}
