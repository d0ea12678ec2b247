import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Shipping addresses and item orders: `addresses`, one per user, its owner's alone;
 * `orders`, one per item gift, made in the gift's transaction and moved through
 * awaiting_address → placed → shipped → delivered (or refunded) by conditional updates.
 */
export class Orders1763871000000 implements MigrationInterface {
  name = 'Orders1763871000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const ref = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });
    const text = (name: string, length: string, isNullable = false) => ({ name, type: 'varchar', length, isNullable });

    await q.createTable(
      new Table({
        name: 'addresses',
        columns: [
          { ...ref('user_id'), isPrimary: true },
          text('name', '100'),
          text('line1', '100'),
          text('line2', '100', true),
          text('city', '100'),
          text('region', '100', true),
          text('postal_code', '16', true),
          text('country', '2'),
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'orders',
        columns: [
          { ...ref('id'), isPrimary: true },
          ref('recipient_id'),
          ref('giver_id'),
          text('item_id', '100', true),
          text('item_title', '255'),
          text('item_photo', '2048', true),
          { name: 'amount_cents', type: 'bigint', default: 0 },
          ref('transfer_id'),
          ref('refund_transfer_id', true),
          text('status', '20'),
          text('source', '16'),
          ref('conversation_id', true),
          { name: 'ship_to', type: 'text', isNullable: true },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
          { name: 'placed_at', type: ts, isNullable: true },
          { name: 'shipped_at', type: ts, isNullable: true },
          { name: 'delivered_at', type: ts, isNullable: true },
          { name: 'refunded_at', type: ts, isNullable: true },
        ],
        checks: [
          {
            name: 'chk_orders_status',
            expression: "status IN ('awaiting_address', 'placed', 'shipped', 'delivered', 'refunded')",
          },
        ],
        foreignKeys: [
          { columnNames: ['recipient_id'], referencedTableName: 'users', referencedColumnNames: ['id'] },
          { columnNames: ['giver_id'], referencedTableName: 'users', referencedColumnNames: ['id'] },
          { columnNames: ['transfer_id'], referencedTableName: 'ledger_transfers', referencedColumnNames: ['id'] },
          { columnNames: ['refund_transfer_id'], referencedTableName: 'ledger_transfers', referencedColumnNames: ['id'] },
        ],
      }),
    );
    await q.createIndex('orders', new TableIndex({ name: 'idx_orders_recipient', columnNames: ['recipient_id', 'created_at'] }));
    await q.createIndex('orders', new TableIndex({ name: 'idx_orders_giver', columnNames: ['giver_id', 'created_at'] }));
    // The sweeps: waiting orders by age, placed ones by placing time, shipped ones by shipping time.
    await q.createIndex('orders', new TableIndex({ name: 'idx_orders_status_created', columnNames: ['status', 'created_at'] }));
    await q.createIndex('orders', new TableIndex({ name: 'idx_orders_status_placed', columnNames: ['status', 'placed_at'] }));
    await q.createIndex('orders', new TableIndex({ name: 'idx_orders_status_shipped', columnNames: ['status', 'shipped_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('orders');
    await q.dropTable('addresses');
  }
}
