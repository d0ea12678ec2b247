import crypto from 'node:crypto';
import { dateParam } from '../dates.js';
import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The identity the recipient sees becomes part of a conversation's key, so that an anonymous gift
 * and a gift whose giver is known can never land in the same conversation:
 *
 * - `conversations.pair_key` (unique) replaces the (initiator, responder) pair constraint. A named
 *   conversation's key is `named:<lower id>:<higher id>`; an anonymous one's is
 *   `anon:<pseudonym>`, where the pseudonym is a random id kept per (giver, recipient) in
 *   `anonymous_pseudonyms` — never equal to, nor derivable from, the named pair.
 * - Every existing conversation was made anonymous (the old code made them all so); each keeps
 *   being one, under a fresh pseudonym.
 *
 * On SQLite, dropping a table constraint rebuilds the table; a rebuild with foreign keys on would
 * cascade the old table's implicit DELETE into `messages`. So this migration runs outside the
 * runner's transaction, turns foreign keys off, does its work in its own transaction and checks
 * the keys before turning them back on (SQLite's documented procedure for schema changes).
 */
export class ConversationIdentity1763870600000 implements MigrationInterface {
  name = 'ConversationIdentity1763870600000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const sqlite = q.dataSource.driver.options.type !== 'postgres';
    if (sqlite) await q.query('PRAGMA foreign_keys = OFF');
    await q.startTransaction();
    try {
      await this.change(q);
      if (sqlite) {
        const broken: unknown[] = await q.query('PRAGMA foreign_key_check');
        if (broken.length) throw new Error(`foreign key check failed after the conversations rebuild: ${JSON.stringify(broken)}`);
      }
      await q.commitTransaction();
    } catch (err) {
      await q.rollbackTransaction();
      throw err;
    } finally {
      if (sqlite) await q.query('PRAGMA foreign_keys = ON');
    }
  }

  private async change(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const ref = (name: string) => ({ name, type: 'varchar', length: '36' });
    await q.createTable(
      new Table({
        name: 'anonymous_pseudonyms',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          ref('giver_id'),
          ref('recipient_id'),
          { name: 'created_at', type: ts },
        ],
        uniques: [{ name: 'uq_anonymous_pseudonym_pair', columnNames: ['giver_id', 'recipient_id'] }],
      }),
    );
    await q.addColumn('conversations', new TableColumn({ name: 'pair_key', type: 'varchar', length: '100', isNullable: true }));

    const rows: { id: string; initiator_id: string; responder_id: string }[] = await q.query(
      'SELECT id, initiator_id, responder_id FROM conversations',
    );
    // Raw SQL: the tables have entities now, and a query builder would map these snake_case names
    // through them.
    const [p1, p2, p3, p4] = q.dataSource.driver.options.type === 'postgres' ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
    const now = dateParam(q.manager, new Date());
    for (const row of rows) {
      const pseudonym = crypto.randomUUID();
      await q.query(`INSERT INTO anonymous_pseudonyms (id, giver_id, recipient_id, created_at) VALUES (${p1}, ${p2}, ${p3}, ${p4})`, [
        pseudonym,
        row.initiator_id,
        row.responder_id,
        now,
      ]);
      // Every one of them is already anonymous (the column defaulted to true and nothing set it false).
      await q.query(`UPDATE conversations SET pair_key = ${p1} WHERE id = ${p2}`, [`anon:${pseudonym}`, row.id]);
    }

    await q.dropUniqueConstraint('conversations', 'uq_conversation_pair');
    await q.createIndex('conversations', new TableIndex({ name: 'uq_conversation_pair_key', columnNames: ['pair_key'], isUnique: true }));
    await q.createIndex('conversations', new TableIndex({ name: 'idx_conversations_initiator', columnNames: ['initiator_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('conversations', 'idx_conversations_initiator');
    await q.dropIndex('conversations', 'uq_conversation_pair_key');
    await q.dropColumn('conversations', 'pair_key');
    await q.dropTable('anonymous_pseudonyms');
  }
}
