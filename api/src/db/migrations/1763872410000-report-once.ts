import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One report per message per reporter (moderation/service.ts `createReport`): a unique index on
 * `reports (reporter_id, message_id)` where `message_id` is set (conversation reports have none and
 * may repeat). A partial index, which SQLite and PostgreSQL both have. Repeats stored before it are
 * dropped first, keeping of each reporter's reports of one message an open one if any, else the
 * earliest (it holds the text as it first read).
 */
export class ReportOnce1763872410000 implements MigrationInterface {
  name = 'ReportOnce1763872410000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM reports WHERE message_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM reports kept
        WHERE kept.reporter_id = reports.reporter_id AND kept.message_id = reports.message_id AND kept.id <> reports.id
          AND ((kept.status = 'open' AND reports.status <> 'open')
            OR (kept.status = reports.status
              AND (kept.created_at < reports.created_at OR (kept.created_at = reports.created_at AND kept.id < reports.id)))))`);
    await q.query(
      'CREATE UNIQUE INDEX "idx_reports_reporter_message" ON "reports" ("reporter_id", "message_id") WHERE "message_id" IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS "idx_reports_reporter_message"');
  }
}
