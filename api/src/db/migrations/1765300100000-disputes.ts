import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Disputes and gifts taken back (money/disputes.ts, money/gift-receipts.ts): `disputes`, one per
 * provider dispute of a card payment, with what could not be recovered and what its payer has
 * repaid since; `gift_receipts`, the transfer, message and thread of each money gift to a person,
 * so a gift can be returned or reversed in its own thread.
 */
export class Disputes1765300100000 implements MigrationInterface {
  name = 'Disputes1765300100000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'disputes',
        columns: [
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'deposit_transfer_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'amount_cents', type: 'bigint' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'unrecovered_cents', type: 'bigint', default: 0 },
          { name: 'repaid_cents', type: 'bigint', default: 0 },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
      }),
    );
    await q.createIndex('disputes', new TableIndex({ name: 'idx_disputes_user', columnNames: ['user_id'] }));
    // A dispute names the card payment by the provider's reference.
    await q.createIndex('ledger_transfers', new TableIndex({ name: 'idx_ledger_transfers_reference', columnNames: ['reference'] }));
    await q.createTable(
      new Table({
        name: 'gift_receipts',
        columns: [
          { name: 'transfer_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'message_id', type: 'varchar', length: '36', isUnique: true },
          { name: 'conversation_id', type: 'varchar', length: '36' },
          { name: 'giver_id', type: 'varchar', length: '36' },
          { name: 'recipient_id', type: 'varchar', length: '36' },
          { name: 'amount_cents', type: 'bigint' },
          { name: 'outcome', type: 'varchar', length: '16', isNullable: true },
          { name: 'created_at', type: ts },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('gift_receipts');
    await q.dropIndex('ledger_transfers', 'idx_ledger_transfers_reference');
    await q.dropIndex('disputes', 'idx_disputes_user');
    await q.dropTable('disputes');
  }
}
