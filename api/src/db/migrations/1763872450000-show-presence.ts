import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Presence is opt-in: `users.show_presence` (people the user talks with by name may see when they
 * are online), off for everyone, existing accounts too.
 *
 * Plain `ALTER TABLE … ADD COLUMN`, as in InviteRefill1763871300000: TypeORM's `addColumn` rebuilds
 * the users table on SQLite, whose implicit DELETE would cascade into every table that references users.
 */
export class ShowPresence1763872450000 implements MigrationInterface {
  name = 'ShowPresence1763872450000';

  async up(q: QueryRunner): Promise<void> {
    const no = q.dataSource.options.type === 'postgres' ? 'false' : '0';
    await q.query(`ALTER TABLE users ADD COLUMN show_presence boolean NOT NULL DEFAULT ${no}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN show_presence');
  }
}
