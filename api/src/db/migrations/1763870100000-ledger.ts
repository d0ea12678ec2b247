import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The money ledger (see money/ledger.ts). User balances stay cached in users.balance_cents;
 * escrow and system accounts get ledger_accounts rows. Table API only: runs on SQLite and PostgreSQL.
 */
export class Ledger1763870100000 implements MigrationInterface {
  name = 'Ledger1763870100000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const id = { name: 'id', type: 'varchar', length: '36', isPrimary: true };
    const ref = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });

    await q.createTable(
      new Table({
        name: 'ledger_accounts',
        columns: [
          { name: 'key', type: 'varchar', length: '80', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'balance_cents', type: 'bigint', default: 0 },
          { name: 'created_at', type: ts },
        ],
        // System accounts are the outside world and may go negative; escrow never does.
        checks: [{ name: 'chk_ledger_accounts_balance', expression: "kind = 'system' OR balance_cents >= 0" }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'ledger_transfers',
        columns: [
          id,
          { name: 'kind', type: 'varchar', length: '24' },
          ref('actor_user_id', true),
          { name: 'reference', type: 'varchar', length: '255', isNullable: true },
          { name: 'created_at', type: ts },
        ],
      }),
    );
    await q.createIndex('ledger_transfers', new TableIndex({ name: 'idx_ledger_transfers_actor', columnNames: ['actor_user_id'] }));

    await q.createTable(
      new Table({
        name: 'ledger_entries',
        columns: [
          id,
          ref('transfer_id'),
          { name: 'account', type: 'varchar', length: '80' },
          { name: 'amount_cents', type: 'bigint' },
          { name: 'created_at', type: ts },
        ],
        checks: [{ name: 'chk_ledger_entries_amount', expression: 'amount_cents <> 0' }],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['transfer_id'],
            referencedTableName: 'ledger_transfers',
            referencedColumnNames: ['id'],
          }),
        ],
      }),
    );
    await q.createIndex('ledger_entries', new TableIndex({ name: 'idx_ledger_entries_account', columnNames: ['account'] }));
    await q.createIndex('ledger_entries', new TableIndex({ name: 'idx_ledger_entries_transfer', columnNames: ['transfer_id'] }));

    await q.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          id,
          ref('user_id'),
          { name: 'key', type: 'varchar', length: '255' },
          { name: 'scope', type: 'varchar', length: '64' },
          { name: 'request_hash', type: 'varchar', length: '64' },
          { name: 'status', type: 'integer' },
          { name: 'response', type: 'text', isNullable: true },
          { name: 'created_at', type: ts },
        ],
        uniques: [{ name: 'uq_idempotency_user_key', columnNames: ['user_id', 'key'] }],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('idempotency_keys');
    await q.dropTable('ledger_entries');
    await q.dropTable('ledger_transfers');
    await q.dropTable('ledger_accounts');
  }
}
