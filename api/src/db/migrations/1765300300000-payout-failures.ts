import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bank payout that failed after its Transfer (Stripe's `payout.failed` on a connected account):
 * the amount, Stripe's failure code and message, when the payout was made and when it failed, on
 * `payout_accounts`, and `payout_event_at`, the time of the last payout event applied, so an older
 * one arriving late changes nothing. All null until a payout fails; a later `payout.paid` clears them.
 */
export class PayoutFailures1765300300000 implements MigrationInterface {
  name = 'PayoutFailures1765300300000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    // Plain ADD COLUMN runs in place on both databases (TypeORM's addColumn rebuilds the table on SQLite).
    await q.query('ALTER TABLE payout_accounts ADD COLUMN failed_payout_cents bigint NULL');
    await q.query('ALTER TABLE payout_accounts ADD COLUMN failed_payout_code varchar(64) NULL');
    await q.query('ALTER TABLE payout_accounts ADD COLUMN failed_payout_message varchar(500) NULL');
    await q.query(`ALTER TABLE payout_accounts ADD COLUMN failed_payout_created ${ts} NULL`);
    await q.query(`ALTER TABLE payout_accounts ADD COLUMN failed_payout_at ${ts} NULL`);
    await q.query(`ALTER TABLE payout_accounts ADD COLUMN payout_event_at ${ts} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of [
      'payout_event_at',
      'failed_payout_at',
      'failed_payout_created',
      'failed_payout_message',
      'failed_payout_code',
      'failed_payout_cents',
    ])
      await q.query(`ALTER TABLE payout_accounts DROP COLUMN ${column}`);
  }
}
