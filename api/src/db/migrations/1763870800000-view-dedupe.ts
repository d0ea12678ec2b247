import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A link's view counts at most once per visitor per hour (links/views.ts): each visitor row keeps
 * when its view last counted. Existing rows counted when they were made. Nothing references
 * `link_visitors`, so SQLite's rebuild of the table for a new column is safe.
 */
export class ViewDedupe1763870800000 implements MigrationInterface {
  name = 'ViewDedupe1763870800000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.addColumn('link_visitors', new TableColumn({ name: 'counted_at', type: ts, isNullable: true }));
    await q.query('UPDATE link_visitors SET counted_at = created_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('link_visitors', 'counted_at');
  }
}
