import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Money on hold (money/holds.ts): `held_lots`, each a part of an account's balance that cannot
 * leave before `available_at`, with the card payment it came from (`origin_transfer_id`) so a
 * dispute can follow it.
 */
export class HeldLots1765300000000 implements MigrationInterface {
  name = 'HeldLots1765300000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'held_lots',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'account', type: 'varchar', length: '80' },
          { name: 'origin_transfer_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'source_transfer_id', type: 'varchar', length: '36' },
          { name: 'amount_cents', type: 'bigint' },
          { name: 'remaining_cents', type: 'bigint' },
          { name: 'available_at', type: ts },
          { name: 'created_at', type: ts },
        ],
        checks: [{ name: 'chk_held_lots_remaining', expression: 'remaining_cents >= 0 AND remaining_cents <= amount_cents' }],
      }),
    );
    await q.createIndex('held_lots', new TableIndex({ name: 'idx_held_lots_account', columnNames: ['account', 'available_at'] }));
    await q.createIndex('held_lots', new TableIndex({ name: 'idx_held_lots_origin', columnNames: ['origin_transfer_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('held_lots', 'idx_held_lots_origin');
    await q.dropIndex('held_lots', 'idx_held_lots_account');
    await q.dropTable('held_lots');
  }
}
