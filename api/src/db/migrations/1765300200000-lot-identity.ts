import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `held_lots.payer_identity`: as whom the card payment of a lot's origin was made (`named` or
 * `anonymous`), so a dispute follows money only into what the same identity did with it
 * (money/holds.ts). Existing lots were all made before the rule: they stay null, followed by nobody.
 */
export class LotIdentity1765300200000 implements MigrationInterface {
  name = 'LotIdentity1765300200000';

  async up(q: QueryRunner): Promise<void> {
    // A plain ADD COLUMN runs in place on both databases (TypeORM's addColumn rebuilds the table on SQLite).
    await q.query('ALTER TABLE held_lots ADD COLUMN payer_identity varchar(9)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE held_lots DROP COLUMN payer_identity');
  }
}
