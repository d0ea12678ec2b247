import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Wishlists (one per user, made on first save) and their items (at most seven, checked by the service). */
export class Wishlists1763870400000 implements MigrationInterface {
  name = 'Wishlists1763870400000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const ref = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });

    await q.createTable(
      new Table({
        name: 'wishlists',
        columns: [
          { name: 'owner_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
        foreignKeys: [{ columnNames: ['owner_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'wishlist_items',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          ref('owner_id'),
          { name: 'position', type: 'integer', default: 0 },
          { name: 'item_id', type: 'varchar', length: '100' },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'title', type: 'varchar', length: '255' },
          { name: 'price_cents', type: 'bigint', default: 0 },
          { name: 'shipping_cents', type: 'bigint', isNullable: true },
          { name: 'shipping_type', type: 'varchar', length: '16' },
          { name: 'condition', type: 'varchar', length: '64', default: "''" },
          { name: 'description', type: 'text', default: "''" },
          { name: 'image_url', type: 'varchar', length: '2048' },
          { name: 'all_images', type: 'text' },
          { name: 'purchased', type: 'boolean', default: false },
          { name: 'purchased_at', type: ts, isNullable: true },
          ref('purchaser_id', true),
          ref('transfer_id', true),
          { name: 'created_at', type: ts },
        ],
        checks: [
          { name: 'chk_wishlist_items_price', expression: 'price_cents >= 0' },
          { name: 'chk_wishlist_items_shipping_type', expression: "shipping_type IN ('FIXED', 'CALCULATED')" },
        ],
        foreignKeys: [
          { columnNames: ['owner_id'], referencedTableName: 'wishlists', referencedColumnNames: ['owner_id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await q.createIndex('wishlist_items', new TableIndex({ name: 'idx_wishlist_items_owner', columnNames: ['owner_id', 'position'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('wishlist_items');
    await q.dropTable('wishlists');
  }
}
