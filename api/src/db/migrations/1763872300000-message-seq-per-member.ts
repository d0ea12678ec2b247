import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: message numbers that follow commit order for each member, not through one lock for
 * everyone.
 *
 * What a client needs is that its own "everything after N" never misses a message: that any two
 * messages of conversations it belongs to are numbered in the order they commit. Until now every
 * writer locked the one `message_seq` counter row from its number until its commit was durable,
 * so all writers of messages, whoever they wrote to, committed one after the other, each waiting
 * out the previous one's flush to disk: gives on PostgreSQL spent a third of their database time
 * queueing on that row and numbering at COMMIT (an update of every gift message, with its indexes).
 *
 * Now a writer locks its messages' members before it takes a number, and holds them to its commit
 * (transaction-level advisory locks, one per member, keyed by the user id's hash in a key space of
 * their own, taken in key order: conversations/member-locks.ts); the number comes from the
 * `message_seq_numbers` sequence, which never waits. Two writers with a member in common still
 * commit one after the other, the second numbering after the first has committed; writers with no
 * member in common no longer wait for each other. Numbers stay unique and increasing for each
 * member's messages; across unrelated conversations they may commit out of order, which nobody can
 * see (nobody is a member of both).
 *
 * Gift messages and batches of normal messages take their number in the statement that inserts
 * them (conversations/gift-message.ts, conversations/message-writer.ts). The deferred trigger stays
 * for a row inserted without one, and now locks its members at COMMIT before numbering it.
 * The sequence starts after the counter's last number. SQLite is unchanged: it has one writer.
 */
export class MessageSeqPerMember1763872300000 implements MigrationInterface {
  name = 'MessageSeqPerMember1763872300000';

  async up(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type !== 'postgres') return;
    await q.query('CREATE SEQUENCE message_seq_numbers');
    await q.query("SELECT setval('message_seq_numbers', COALESCE((SELECT value FROM counters WHERE name = 'message_seq'), 0) + 1, false)");
    await q.query(`
      CREATE OR REPLACE FUNCTION assign_message_seq() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The members' locks (conversations/member-locks.ts, written out: a migration stays as it ran).
        PERFORM pg_advisory_xact_lock(1, k) FROM (
          SELECT DISTINCT hashtext(x) AS k FROM (
            SELECT c.initiator_id AS x FROM conversations c WHERE c.id = NEW.conversation_id
            UNION SELECT c.responder_id FROM conversations c WHERE c.id = NEW.conversation_id
          ) m ORDER BY k OFFSET 0
        ) s;
        UPDATE messages SET seq = nextval('message_seq_numbers') WHERE id = NEW.id;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type !== 'postgres') return;
    await q.query(`
      CREATE OR REPLACE FUNCTION assign_message_seq() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE next_seq bigint;
      BEGIN
        UPDATE counters SET value = value + 1 WHERE name = 'message_seq' RETURNING value INTO next_seq;
        UPDATE messages SET seq = next_seq WHERE id = NEW.id;
        RETURN NULL;
      END $$`);
    await q.query("UPDATE counters SET value = (SELECT COALESCE(max(seq), 0) FROM messages) WHERE name = 'message_seq'");
    await q.query('DROP SEQUENCE message_seq_numbers');
  }
}
