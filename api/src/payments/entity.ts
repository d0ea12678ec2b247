import { EntitySchema } from 'typeorm';
import { dateColumn } from '../db/columns.js';

/**
 * The sandbox provider's own objects (customers, subscriptions, payment intents, card charges, transfers), so that every
 * API process sees the same sandbox. `data` is the object as JSON; `idempotency_key` makes a
 * repeated create answer the first object.
 */
export interface SandboxObject {
  id: string;
  kind: 'customer' | 'subscription' | 'payment_intent' | 'charge' | 'account' | 'card_hold' | 'transfer';
  idempotencyKey: string | null;
  /** A payment intent's client secret (unique), to find it from the page's confirm call. */
  secret: string | null;
  data: string;
  createdAt: Date;
  updatedAt: Date;
}

export const SandboxObjectEntity = new EntitySchema<SandboxObject>({
  name: 'SandboxObject',
  tableName: 'sandbox_payment_objects',
  columns: {
    id: { type: 'varchar', length: 64, primary: true },
    kind: { type: 'varchar', length: 16 },
    idempotencyKey: { type: 'varchar', length: 255, nullable: true, unique: true, name: 'idempotency_key' },
    secret: { type: 'varchar', length: 255, nullable: true, unique: true },
    data: { type: 'text' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
});
