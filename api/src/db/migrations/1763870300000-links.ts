import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Gift links, their visitors and uses; the conversation, message and notification records. */
export class Links1763870300000 implements MigrationInterface {
  name = 'Links1763870300000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const id = { name: 'id', type: 'varchar', length: '36', isPrimary: true };
    const ref = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });
    const cents = (name: string) => ({ name, type: 'bigint', default: 0 });

    await q.createTable(
      new Table({
        name: 'links',
        columns: [
          id,
          ref('creator_id'),
          { name: 'type', type: 'varchar', length: '16' },
          { name: 'give_or_receive', type: 'varchar', length: '16' },
          cents('amount_cents'),
          { name: 'initial_quantity', type: 'integer' },
          { name: 'remaining_quantity', type: 'integer' },
          { name: 'title', type: 'varchar', length: '255', isNullable: true },
          { name: 'photo', type: 'varchar', length: '2048', isNullable: true },
          { name: 'item_id', type: 'varchar', length: '100', isNullable: true },
          cents('total_cost_cents'),
          { name: 'status', type: 'varchar', length: '16', default: "'active'" },
          { name: 'views', type: 'integer', default: 0 },
          { name: 'created_at', type: ts },
          { name: 'expires_at', type: ts },
          { name: 'closed_at', type: ts, isNullable: true },
        ],
        checks: [{ name: 'chk_links_remaining', expression: 'remaining_quantity >= 0' }],
        foreignKeys: [{ columnNames: ['creator_id'], referencedTableName: 'users', referencedColumnNames: ['id'] }],
      }),
    );
    // One active link per user, held by the database itself.
    await q.createIndex(
      'links',
      new TableIndex({ name: 'uq_links_one_active', columnNames: ['creator_id'], isUnique: true, where: "status = 'active'" }),
    );
    await q.createIndex('links', new TableIndex({ name: 'idx_links_feed', columnNames: ['status', 'created_at'] }));
    await q.createIndex('links', new TableIndex({ name: 'idx_links_expiry', columnNames: ['status', 'expires_at'] }));

    await q.createTable(
      new Table({
        name: 'link_visitors',
        columns: [
          id,
          ref('link_id'),
          { name: 'visitor_key', type: 'varchar', length: '80' },
          ref('user_id', true),
          { name: 'created_at', type: ts },
        ],
        uniques: [{ name: 'uq_link_visitor', columnNames: ['link_id', 'visitor_key'] }],
        foreignKeys: [{ columnNames: ['link_id'], referencedTableName: 'links', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'link_responses',
        columns: [
          id,
          ref('link_id'),
          ref('responder_id'),
          { name: 'kind', type: 'varchar', length: '16' },
          cents('amount_cents'),
          { name: 'item_id', type: 'varchar', length: '100', isNullable: true },
          ref('transfer_id'),
          { name: 'created_at', type: ts },
        ],
        uniques: [{ name: 'uq_link_response', columnNames: ['link_id', 'responder_id'] }],
        foreignKeys: [{ columnNames: ['link_id'], referencedTableName: 'links', referencedColumnNames: ['id'] }],
      }),
    );

    await q.createTable(
      new Table({
        name: 'conversations',
        columns: [
          id,
          ref('initiator_id'),
          ref('responder_id'),
          { name: 'initiator_anonymous', type: 'boolean', default: true },
          ref('last_message_id', true),
          { name: 'last_message_at', type: ts },
          { name: 'created_at', type: ts },
        ],
        uniques: [{ name: 'uq_conversation_pair', columnNames: ['initiator_id', 'responder_id'] }],
      }),
    );
    await q.createIndex('conversations', new TableIndex({ name: 'idx_conversations_responder', columnNames: ['responder_id'] }));

    await q.createTable(
      new Table({
        name: 'messages',
        columns: [
          id,
          ref('conversation_id'),
          ref('sender_id'),
          { name: 'text', type: 'varchar', length: '2000' },
          { name: 'message_type', type: 'varchar', length: '16', default: "'normal'" },
          { name: 'gift_title', type: 'varchar', length: '255', isNullable: true },
          { name: 'gift_type', type: 'varchar', length: '16', isNullable: true },
          { name: 'gift_img', type: 'varchar', length: '2048', isNullable: true },
          { name: 'read', type: 'boolean', default: false },
          { name: 'created_at', type: ts },
        ],
        foreignKeys: [
          { columnNames: ['conversation_id'], referencedTableName: 'conversations', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
      }),
    );
    await q.createIndex('messages', new TableIndex({ name: 'idx_messages_conversation', columnNames: ['conversation_id', 'created_at'] }));

    await q.createTable(
      new Table({
        name: 'notifications',
        columns: [
          id,
          ref('sender_id', true),
          ref('receiver_id'),
          cents('amount_cents'),
          { name: 'type', type: 'varchar', length: '16' },
          { name: 'give_or_receive', type: 'varchar', length: '16', isNullable: true },
          { name: 'link_or_wishlist', type: 'varchar', length: '16' },
          ref('related_post_id', true),
          { name: 'message', type: 'varchar', length: '500' },
          { name: 'item_photo', type: 'varchar', length: '2048', isNullable: true },
          { name: 'item_title', type: 'varchar', length: '255', isNullable: true },
          { name: 'item_id', type: 'varchar', length: '100', isNullable: true },
          ref('conversation_id', true),
          { name: 'read', type: 'boolean', default: false },
          { name: 'created_at', type: ts },
        ],
      }),
    );
    await q.createIndex('notifications', new TableIndex({ name: 'idx_notifications_receiver', columnNames: ['receiver_id', 'read'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['notifications', 'messages', 'conversations', 'link_responses', 'link_visitors', 'links']) await q.dropTable(t);
  }
}
