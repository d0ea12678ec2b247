import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Payments outside transactions and scheduled jobs.
 *
 * `payment_intents`: a deposit or withdrawal recorded before the payment provider is called
 * (pending), then settled in a second transaction (succeeded or failed), so no provider call runs
 * inside a database transaction and a crash in between is settled on restart
 * (wallet/intents.ts). `idempotency_key` is what the provider is sent: asking again with it gets
 * the first answer. `idempotency_record_id` names the request's Idempotency-Key row, whose answer
 * the settling transaction writes.
 *
 * `job_leases`: one row per scheduled job; a process runs a job's period only when its
 * conditional update `run_at <= now → next period` changed the row (jobs/scheduler.ts).
 */
export class PaymentIntents1763871700000 implements MigrationInterface {
  name = 'PaymentIntents1763871700000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    await q.createTable(
      new Table({
        name: 'payment_intents',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'amount_cents', type: 'bigint' },
          { name: 'idempotency_key', type: 'varchar', length: '255', isUnique: true },
          { name: 'idempotency_record_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'provider_reference', type: 'varchar', length: '255', isNullable: true },
          { name: 'result_balance_cents', type: 'bigint', isNullable: true },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
      }),
    );
    await q.createIndex('payment_intents', new TableIndex({ name: 'idx_payment_intents_status', columnNames: ['status', 'created_at'] }));
    await q.createIndex('payment_intents', new TableIndex({ name: 'idx_payment_intents_user', columnNames: ['user_id'] }));

    await q.createTable(
      new Table({
        name: 'job_leases',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'run_at', type: ts },
          { name: 'owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'claimed_at', type: ts, isNullable: true },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('job_leases');
    await q.dropIndex('payment_intents', 'idx_payment_intents_user');
    await q.dropIndex('payment_intents', 'idx_payment_intents_status');
    await q.dropTable('payment_intents');
  }
}
