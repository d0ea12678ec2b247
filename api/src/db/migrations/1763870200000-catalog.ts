import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The embedded product catalogue (catalog/embedded.ts), loaded from resources/catalog at start-up,
 * and its small meta table. Table API only: runs on SQLite and PostgreSQL.
 */
export class Catalog1763870200000 implements MigrationInterface {
  name = 'Catalog1763870200000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });

    await q.createTable(
      new Table({
        name: 'catalog_products',
        columns: [
          { name: 'item_id', type: 'varchar', length: '100', isPrimary: true },
          { name: 'title', type: 'varchar', length: '255' },
          { name: 'category', type: 'varchar', length: '100', default: "''" },
          { name: 'price_cents', type: 'bigint', default: 0 },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'shipping_type', type: 'varchar', length: '16', isNullable: true },
          { name: 'shipping_cents', type: 'bigint', default: 0 },
          { name: 'condition', type: 'varchar', length: '64', default: "''" },
          { name: 'description', type: 'text', default: "''" },
          { name: 'image_url', type: 'varchar', length: '255' },
          { name: 'additional_images', type: 'text' },
          { name: 'search_text', type: 'text' },
          { name: 'position', type: 'integer', default: 0 },
        ],
        checks: [{ name: 'chk_catalog_products_price', expression: 'price_cents >= 0 AND shipping_cents >= 0' }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'catalog_meta',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'value', type: 'varchar', length: '255', default: "''" },
          { name: 'updated_at', type: ts },
        ],
      }),
    );
    // The row the loader locks (UPDATE … SET value = value) before it reloads the products, so
    // two processes starting together load the catalogue once.
    await q.query("INSERT INTO catalog_meta (name, value, updated_at) VALUES ('products_hash', '', CURRENT_TIMESTAMP)");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('catalog_meta');
    await q.dropTable('catalog_products');
  }
}
