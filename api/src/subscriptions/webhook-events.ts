import { EntitySchema } from 'typeorm';
import { dateColumn } from '../db/columns.js';

/**
 * A Stripe webhook event this product has handled (`stripe_events`). Its id is the primary key: the
 * webhook inserts it in the same transaction that applies the event, so a replay, or the same event
 * delivered to two API processes at once, fails the insert and changes nothing (webhook.ts).
 */
export interface StripeEventRecord {
  /** Stripe's event id, `evt_…`. */
  id: string;
  /** The event's type, e.g. `invoice.paid`. */
  type: string;
  receivedAt: Date;
}

export const StripeEventEntity = new EntitySchema<StripeEventRecord>({
  name: 'StripeEvent',
  tableName: 'stripe_events',
  columns: {
    id: { type: 'varchar', length: 255, primary: true },
    type: { type: 'varchar', length: 100 },
    receivedAt: { ...dateColumn(), name: 'received_at' },
  },
});
