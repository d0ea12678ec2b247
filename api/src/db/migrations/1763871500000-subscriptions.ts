import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The weekly subscription: `subscriptions` (one current subscription per user),
 * `sandbox_payment_objects` (the sandbox provider's customers, subscriptions and payment intents,
 * kept in the database so every API process sees one sandbox) and `users.subscribed_until`, the
 * end of the paid benefits that `isSubscribed` is derived from (subscriptions/policy.ts).
 * `users.is_subscribed` stays but is no longer read.
 *
 * The users column is added with plain `ALTER TABLE … ADD COLUMN`, as in Sessions1763870700000:
 * TypeORM's `addColumn` rebuilds users on SQLite, whose implicit DELETE would cascade.
 */
export class Subscriptions1763871500000 implements MigrationInterface {
  name = 'Subscriptions1763871500000';

  async up(q: QueryRunner): Promise<void> {
    const ts = q.dataSource.driver.normalizeType({ type: Date });
    const no = q.dataSource.options.type === 'postgres' ? 'false' : '0';
    await q.createTable(
      new Table({
        name: 'subscriptions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '36' },
          { name: 'provider', type: 'varchar', length: '16' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'payment_method', type: 'varchar', length: '16' },
          { name: 'provider_subscription_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'provider_customer_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'payment_intent_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'current_period_end', type: ts, isNullable: true },
          { name: 'cancel_at_period_end', type: 'boolean', default: no },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await q.createIndex('subscriptions', new TableIndex({ name: 'uq_subscriptions_user', columnNames: ['user_id'], isUnique: true }));
    await q.createIndex(
      'subscriptions',
      new TableIndex({ name: 'idx_subscriptions_provider_sub', columnNames: ['provider_subscription_id'], isUnique: true }),
    );
    await q.createIndex('subscriptions', new TableIndex({ name: 'idx_subscriptions_due', columnNames: ['status', 'current_period_end'] }));

    await q.createTable(
      new Table({
        name: 'sandbox_payment_objects',
        columns: [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'idempotency_key', type: 'varchar', length: '255', isNullable: true },
          { name: 'secret', type: 'varchar', length: '255', isNullable: true },
          { name: 'data', type: 'text' },
          { name: 'created_at', type: ts },
          { name: 'updated_at', type: ts },
        ],
      }),
    );
    await q.createIndex(
      'sandbox_payment_objects',
      new TableIndex({ name: 'uq_sandbox_objects_idempotency', columnNames: ['idempotency_key'], isUnique: true }),
    );
    await q.createIndex(
      'sandbox_payment_objects',
      new TableIndex({ name: 'uq_sandbox_objects_secret', columnNames: ['secret'], isUnique: true }),
    );

    await q.query(`ALTER TABLE users ADD COLUMN subscribed_until ${ts} NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users DROP COLUMN subscribed_until');
    await q.dropTable('sandbox_payment_objects');
    await q.dropTable('subscriptions');
  }
}
