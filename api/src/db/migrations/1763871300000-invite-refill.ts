import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Joining through a link and invite refill: `users.let_visitors_join` (visitors of the
 * user's links may register with one of their invites; on for everyone, existing accounts too) and
 * `users.invites_refilled_at` (when the refill clock last started or ticked; null for existing
 * accounts means "since the account was made", see invites/refill.ts).
 *
 * Plain `ALTER TABLE … ADD COLUMN`, which SQLite and PostgreSQL both run in place, as in
 * Sessions1763870700000: TypeORM's `addColumn` rebuilds the users table on SQLite, whose implicit
 * DELETE would cascade into every table that references users.
 */
export class InviteRefill1763871300000 implements MigrationInterface {
  name = 'InviteRefill1763871300000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const yes = q.dataSource.options.type === 'postgres' ? 'true' : '1';
    await q.query(`ALTER TABLE users ADD COLUMN let_visitors_join boolean NOT NULL DEFAULT ${yes}`);
    await q.query(`ALTER TABLE users ADD COLUMN invites_refilled_at ${ts} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN invites_refilled_at');
    await q.query('ALTER TABLE users DROP COLUMN let_visitors_join');
  }
}
