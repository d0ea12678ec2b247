import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion: `users.closed_at`, when the account was closed (null while open). A
 * closed account keeps its row, so the ledger entries that point to it stay; its username is
 * released 30 days later (users/release.ts).
 *
 * Plain `ALTER TABLE … ADD COLUMN`, as in InviteRefill1763871300000: TypeORM's `addColumn` rebuilds
 * the users table on SQLite, whose implicit DELETE would cascade into every table that references users.
 */
export class AccountClosing1763872100000 implements MigrationInterface {
  name = 'AccountClosing1763872100000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.query(`ALTER TABLE users ADD COLUMN closed_at ${ts} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN closed_at');
  }
}
