import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes that every give or message wrote to and no query read: each insert put one
 * more page, at a random place in the index, into the COMMIT.
 * - messages (conversation_id, created_at): every read of a conversation's messages goes by
 *   (conversation_id, seq) since messages are numbered (1763870500000), and that index serves a
 *   lookup by conversation_id alone as well.
 * - ledger_transfers (actor_user_id): nothing looks transfers up by who made them; the ledger is read
 *   by account (ledger_entries) and by transfer.
 */
export class UnusedIndexes1763872200000 implements MigrationInterface {
  name = 'UnusedIndexes1763872200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS "idx_messages_conversation"');
    await q.query('DROP INDEX IF EXISTS "idx_ledger_transfers_actor"');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS "idx_messages_conversation" ON "messages" ("conversation_id", "created_at")');
    await q.query('CREATE INDEX IF NOT EXISTS "idx_ledger_transfers_actor" ON "ledger_transfers" ("actor_user_id")');
  }
}
