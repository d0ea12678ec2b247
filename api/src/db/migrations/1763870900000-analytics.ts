import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Analytics: the events of PRODUCT.md §3 and §7 (`analytics_events`: session starts, page
 * views and the four event types, each the emitted record as JSON), and the facts behind a link
 * owner's visitor breakdown: per visitor at its first visit where it came from and which kind of
 * device (two columns of `link_visitors`), and per link and UTC day the counted views and distinct
 * visitors (`link_view_days`, counts only). Nothing references `link_visitors`, so SQLite's
 * rebuild of it for new columns is safe (as in ViewDedupe1763870800000).
 */
export class Analytics1763870900000 implements MigrationInterface {
  name = 'Analytics1763870900000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'analytics_events',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'session_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'event_type', type: 'varchar', length: '32' },
          { name: 'event_details', type: 'text', isNullable: true },
          { name: 'page_url', type: 'varchar', length: '2048', isNullable: true },
          { name: 'created_at', type: ts },
        ],
      }),
    );
    await q.createIndex(
      'analytics_events',
      new TableIndex({ name: 'idx_analytics_events_type_time', columnNames: ['event_type', 'created_at'] }),
    );
    await q.createIndex('analytics_events', new TableIndex({ name: 'idx_analytics_events_session', columnNames: ['session_id'] }));

    await q.addColumns('link_visitors', [
      new TableColumn({ name: 'source', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'device', type: 'varchar', length: '8', isNullable: true }),
    ]);

    await q.createTable(
      new Table({
        name: 'link_view_days',
        columns: [
          { name: 'link_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          { name: 'views', type: 'integer', default: 0 },
          { name: 'visitors', type: 'integer', default: 0 },
        ],
        foreignKeys: [{ columnNames: ['link_id'], referencedTableName: 'links', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('link_view_days');
    await q.dropColumn('link_visitors', 'device');
    await q.dropColumn('link_visitors', 'source');
    await q.dropIndex('analytics_events', 'idx_analytics_events_session');
    await q.dropIndex('analytics_events', 'idx_analytics_events_type_time');
    await q.dropTable('analytics_events');
  }
}
