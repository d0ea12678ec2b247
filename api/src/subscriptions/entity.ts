import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';
import type { SubscriptionPaymentMethod, SubscriptionStatus } from '../../contract/subscriptions.js';

/** Who takes the weekly payment: the sandbox or Stripe (a card), or the Giftlink balance (the ledger). */
export type SubscriptionProviderName = 'sandbox' | 'stripe' | 'balance';

/**
 * A user's one current subscription. `users.subscribed_until` is set in the same
 * transaction as every change here: it is what `isSubscribed` reads (subscriptions/policy.ts).
 */
export interface Subscription {
  id: string;
  userId: string;
  provider: SubscriptionProviderName;
  status: SubscriptionStatus;
  paymentMethod: SubscriptionPaymentMethod;
  /** `sub_…` at Stripe, `sub_sandbox_…` in the sandbox; null for balance payments. */
  providerSubscriptionId: string | null;
  providerCustomerId: string | null;
  /** The first payment waiting for the page to confirm it (card payments). */
  paymentIntentId: string | null;
  /** End of the paid period; null until the first payment. */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const SubscriptionEntity = new EntitySchema<Subscription>({
  name: 'Subscription',
  tableName: 'subscriptions',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id', unique: true },
    provider: { type: 'varchar', length: 16 },
    status: { type: 'varchar', length: 16 },
    paymentMethod: { type: 'varchar', length: 16, name: 'payment_method' },
    providerSubscriptionId: { type: 'varchar', length: 255, nullable: true, name: 'provider_subscription_id' },
    providerCustomerId: { type: 'varchar', length: 255, nullable: true, name: 'provider_customer_id' },
    paymentIntentId: { type: 'varchar', length: 255, nullable: true, name: 'payment_intent_id' },
    currentPeriodEnd: { ...dateColumn(true), name: 'current_period_end' },
    cancelAtPeriodEnd: { type: 'boolean', default: false, name: 'cancel_at_period_end' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
  indices: [
    { name: 'idx_subscriptions_provider_sub', columns: ['providerSubscriptionId'], unique: true },
    { name: 'idx_subscriptions_due', columns: ['status', 'currentPeriodEnd'] },
  ],
});

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
