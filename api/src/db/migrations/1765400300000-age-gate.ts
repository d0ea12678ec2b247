import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The age gate: `users.adult` (passed it at registration) and `users.birth_year`, never the full
 * date. Existing accounts were never asked: adult false and no year, and they work as before.
 *
 * Plain `ALTER TABLE … ADD COLUMN`, as in ShowPresence1763872450000: TypeORM's `addColumn` rebuilds
 * the users table on SQLite, whose implicit DELETE would cascade into every table that references users.
 */
export class AgeGate1765400300000 implements MigrationInterface {
  name = 'AgeGate1765400300000';

  async up(q: QueryRunner): Promise<void> {
    const no = q.dataSource.options.type === 'postgres' ? 'false' : '0';
    await q.query(`ALTER TABLE users ADD COLUMN adult boolean NOT NULL DEFAULT ${no}`);
    await q.query('ALTER TABLE users ADD COLUMN birth_year integer NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN birth_year');
    await q.query('ALTER TABLE users DROP COLUMN adult');
  }
}
