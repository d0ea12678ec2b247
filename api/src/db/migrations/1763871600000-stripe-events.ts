import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Stripe webhook events already handled (subscriptions/webhook.ts): one row per event id,
 * written in the transaction that applies the event, so each event takes effect exactly once.
 */
export class StripeEvents1763871600000 implements MigrationInterface {
  name = 'StripeEvents1763871600000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'stripe_events',
        columns: [
          { name: 'id', type: 'varchar', length: '255', isPrimary: true },
          { name: 'type', type: 'varchar', length: '100' },
          { name: 'received_at', type: ts },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('stripe_events');
  }
}
