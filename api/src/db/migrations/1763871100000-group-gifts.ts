import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Group gifts: a receive currency link collects gifts until they reach its goal
 * (`total_cost_cents`). `raised_cents` is what they add up to and `gifts` how many there were (for
 * every link: its uses), both moved by the conditional update that takes a use. Existing links
 * get theirs from `link_responses`. On SQLite adding columns rebuilds `links`; TypeORM runs
 * migrations with foreign keys off, so the rows that reference it stay as they are.
 */
export class GroupGifts1763871100000 implements MigrationInterface {
  name = 'GroupGifts1763871100000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('links', [
      new TableColumn({ name: 'raised_cents', type: 'bigint', default: 0 }),
      new TableColumn({ name: 'gifts', type: 'integer', default: 0 }),
    ]);
    await q.query(
      `UPDATE links SET
         gifts = (SELECT COUNT(*) FROM link_responses r WHERE r.link_id = links.id),
         raised_cents = (SELECT COALESCE(SUM(r.amount_cents), 0) FROM link_responses r WHERE r.link_id = links.id AND r.kind = 'give')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('links', 'gifts');
    await q.dropColumn('links', 'raised_cents');
  }
}
