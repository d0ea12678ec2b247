import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';

/**
 * A deposit (from the saved payment method, or a card: `card_deposit`; a card the page confirms
 * with Stripe Elements: `card_elements`, its PaymentIntent in `providerReference` while pending)
 * or withdrawal, recorded before the provider is called and settled after (intents.ts).
 */
export type PaymentIntentKind = 'deposit' | 'card_deposit' | 'card_elements' | 'card_hold' | 'elements_hold' | 'withdrawal';
/** The authorisations of one-step gifts: the test form's or saved card (`card_hold`), or Stripe Elements' (`elements_hold`). */
export const HOLD_KINDS: PaymentIntentKind[] = ['card_hold', 'elements_hold'];
/**
 * `pending → succeeded | failed`; a card authorisation (`card_hold`) goes `pending → authorised →
 * landed` (credited with the gift) `→ succeeded` (captured), or `authorised → releasing → failed`;
 * a payment that finds its account closed goes `unclaimed → refunded`.
 */
export type PaymentIntentStatus = 'pending' | 'succeeded' | 'failed' | 'authorised' | 'releasing' | 'landed' | 'unclaimed' | 'refunded';

export interface PaymentIntent {
  id: string;
  userId: string;
  kind: PaymentIntentKind;
  amountCents: number;
  /** What the provider is sent as its idempotency key: asking again with it gets the first answer. */
  idempotencyKey: string;
  /** The request's Idempotency-Key row, whose answer the settling transaction writes. */
  idempotencyRecordId: string | null;
  status: PaymentIntentStatus;
  providerReference: string | null;
  /** The user's balance the answer reports: after the hold (withdrawal) or after the credit (deposit). */
  resultBalanceCents: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const PaymentIntentEntity = new EntitySchema<PaymentIntent>({
  name: 'PaymentIntent',
  tableName: 'payment_intents',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    kind: { type: 'varchar', length: 16 },
    amountCents: centsColumn({ name: 'amount_cents', default: undefined }),
    idempotencyKey: { type: 'varchar', length: 255, name: 'idempotency_key', unique: true },
    idempotencyRecordId: { ...refColumn(true), name: 'idempotency_record_id' },
    status: { type: 'varchar', length: 16 },
    providerReference: { type: 'varchar', length: 255, nullable: true, name: 'provider_reference' },
    resultBalanceCents: centsColumn({ name: 'result_balance_cents', nullable: true, default: undefined }),
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
  indices: [
    { name: 'idx_payment_intents_status', columns: ['status', 'createdAt'] },
    { name: 'idx_payment_intents_user', columns: ['userId'] },
  ],
});
