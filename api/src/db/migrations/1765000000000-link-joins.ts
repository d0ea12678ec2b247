import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `link_joins`: one row per account made from someone's shared link or wishlist, so the joins a
 * link lets in are counted per link owner and per day (invites/join.ts). New table only.
 */
export class LinkJoins1765000000000 implements MigrationInterface {
  name = 'LinkJoins1765000000000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'link_joins',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'inviter_id', type: 'varchar', length: '36' },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'created_at', type: ts },
        ],
        foreignKeys: [
          { columnNames: ['inviter_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await q.createIndex('link_joins', new TableIndex({ name: 'idx_link_joins_inviter', columnNames: ['inviter_id', 'created_at'] }));
    await q.createIndex('link_joins', new TableIndex({ name: 'idx_link_joins_created', columnNames: ['created_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('link_joins');
  }
}
