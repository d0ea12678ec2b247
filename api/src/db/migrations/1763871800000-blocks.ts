import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Blocks. `blocks`: a member blocked the other member of one of their conversations.
 * `blocked_id` is worked out by the server from the conversation and is never shown to the blocker.
 * Unique per (blocker, conversation), not per (blocker, blocked): a block made from an anonymous
 * thread and one made from the named thread of the same two people are two rows, or a second block
 * being refused or merged would tell the blocker that the anonymous giver is that named person.
 * The person is blocked while any row names them (index on blocker, blocked). No foreign keys: a
 * block outlives a closed account's conversations.
 */
export class Blocks1763871800000 implements MigrationInterface {
  name = 'Blocks1763871800000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'blocks',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'blocker_id', type: 'varchar', length: '36' },
          { name: 'blocked_id', type: 'varchar', length: '36' },
          { name: 'conversation_id', type: 'varchar', length: '36' },
          { name: 'created_at', type: ts },
        ],
      }),
    );
    await q.createIndex(
      'blocks',
      new TableIndex({ name: 'uq_blocks_blocker_conversation', columnNames: ['blocker_id', 'conversation_id'], isUnique: true }),
    );
    await q.createIndex('blocks', new TableIndex({ name: 'idx_blocks_blocker_blocked', columnNames: ['blocker_id', 'blocked_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('blocks', 'idx_blocks_blocker_blocked');
    await q.dropIndex('blocks', 'uq_blocks_blocker_conversation');
    await q.dropTable('blocks');
  }
}
