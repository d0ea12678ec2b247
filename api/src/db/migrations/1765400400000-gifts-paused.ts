import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.gifts_paused_at`: when the user paused gifts to their link and wishlist; null (everyone,
 * existing accounts too) while they take gifts. On resume their open links' time moves on by the pause.
 *
 * Plain `ALTER TABLE … ADD COLUMN`, as in ShowPresence1763872450000: TypeORM's `addColumn` rebuilds
 * the users table on SQLite, whose implicit DELETE would cascade into every table that references users.
 */
export class GiftsPaused1765400400000 implements MigrationInterface {
  name = 'GiftsPaused1765400400000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.query(`ALTER TABLE users ADD COLUMN gifts_paused_at ${ts} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN gifts_paused_at');
  }
}
