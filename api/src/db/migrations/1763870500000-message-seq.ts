import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A strictly increasing `seq` for messages, in commit order: a client that holds message N and
 * asks for "everything after N" can never miss a message that committed later with a smaller
 * number. It comes from the `message_seq` counter row, taken inside the writing transaction:
 *
 * - SQLite has one writer at a time, so the application takes it (conversations/service.ts).
 * - PostgreSQL runs writers concurrently. A deferred constraint trigger takes it at COMMIT: the
 *   counter row is locked from there until the commit is durable, so numbers follow commit order,
 *   and writers queue only for the commit itself, never for a round trip to the application.
 *   Until then the row's seq is NULL (unique allows several NULLs; nobody else can see the row).
 *
 * Existing messages are numbered in (created_at, id) order. Tables through the Table API.
 */
export class MessageSeq1763870500000 implements MigrationInterface {
  name = 'MessageSeq1763870500000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'counters',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'value', type: 'bigint', default: 0 },
        ],
      }),
    );
    await q.addColumn('messages', new TableColumn({ name: 'seq', type: 'bigint', isNullable: true }));

    const rows: { id: string }[] = await q.manager
      .createQueryBuilder()
      .select('m.id', 'id')
      .from('messages', 'm')
      .orderBy('m.created_at', 'ASC')
      .addOrderBy('m.id', 'ASC')
      .getRawMany();
    for (const [i, row] of rows.entries()) {
      await q.manager
        .createQueryBuilder()
        .update('messages')
        .set({ seq: i + 1 })
        .where('id = :id', { id: row.id })
        .execute();
    }
    await q.manager.createQueryBuilder().insert().into('counters').values({ name: 'message_seq', value: rows.length }).execute();

    await q.createIndex('messages', new TableIndex({ name: 'uq_messages_seq', columnNames: ['seq'], isUnique: true }));
    await q.createIndex('messages', new TableIndex({ name: 'idx_messages_conversation_seq', columnNames: ['conversation_id', 'seq'] }));

    if (q.dataSource.driver.options.type === 'postgres') {
      await q.query(`
        CREATE FUNCTION assign_message_seq() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE next_seq bigint;
        BEGIN
          UPDATE counters SET value = value + 1 WHERE name = 'message_seq' RETURNING value INTO next_seq;
          UPDATE messages SET seq = next_seq WHERE id = NEW.id;
          RETURN NULL;
        END $$`);
      await q.query(`
        CREATE CONSTRAINT TRIGGER trg_messages_seq AFTER INSERT ON messages
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION assign_message_seq()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type === 'postgres') {
      await q.query('DROP TRIGGER IF EXISTS trg_messages_seq ON messages');
      await q.query('DROP FUNCTION IF EXISTS assign_message_seq()');
    }
    await q.dropIndex('messages', 'idx_messages_conversation_seq');
    await q.dropIndex('messages', 'uq_messages_seq');
    await q.dropColumn('messages', 'seq');
    await q.dropTable('counters');
  }
}
