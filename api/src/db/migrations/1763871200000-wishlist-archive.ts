import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A purchased wishlist item can be archived into the owner's 'Received' section
 * (wishlists/service.ts, `archiveItem`): `archived_at` is when. Archived items no longer count
 * toward the seven. Nothing references `wishlist_items`, so SQLite's rebuild of the table for a
 * new column is safe.
 */
export class WishlistArchive1763871200000 implements MigrationInterface {
  name = 'WishlistArchive1763871200000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.addColumn('wishlist_items', new TableColumn({ name: 'archived_at', type: ts, isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('wishlist_items', 'archived_at');
  }
}
