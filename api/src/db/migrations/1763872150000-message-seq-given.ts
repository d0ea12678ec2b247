import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages that arrive numbered. A batch of normal messages (conversations/message-writer.ts)
 * is one PostgreSQL statement that commits on its own: it takes its numbers from the `message_seq`
 * counter itself, after locking its conversations, and holds the counter row from there until its
 * commit is durable, so numbers still follow commit order (see the 1763870500000 migration). Its
 * rows need no numbering at COMMIT: the deferred trigger now fires only for rows inserted without a
 * number (gift messages and any other writer), and is otherwise unchanged. SQLite has no trigger.
 */
export class MessageSeqGiven1763872150000 implements MigrationInterface {
  name = 'MessageSeqGiven1763872150000';

  async up(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type !== 'postgres') return;
    await q.query('DROP TRIGGER trg_messages_seq ON messages');
    await q.query(`
      CREATE CONSTRAINT TRIGGER trg_messages_seq AFTER INSERT ON messages
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION assign_message_seq()`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type !== 'postgres') return;
    await q.query('DROP TRIGGER trg_messages_seq ON messages');
    await q.query(`
      CREATE CONSTRAINT TRIGGER trg_messages_seq AFTER INSERT ON messages
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION assign_message_seq()`);
  }
}
