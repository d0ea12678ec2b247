import crypto from 'node:crypto';
import type { Database } from '../../db/index.js';
import { SubscriptionEntity } from '../entity.js';

/** A card subscription row as Stripe's would be after create-payment-intent: incomplete, waiting for its first payment. */
export async function insertIncompleteStripeSubscription(db: Database, userId: string, providerSubscriptionId: string): Promise<void> {
  const now = new Date();
  await db.transaction((em) =>
    em.insert(SubscriptionEntity, {
      id: crypto.randomUUID(),
      userId,
      provider: 'stripe',
      status: 'incomplete',
      paymentMethod: 'card',
      providerSubscriptionId,
      providerCustomerId: 'cus_test',
      paymentIntentId: 'pi_test',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      createdAt: now,
      updatedAt: now,
    }),
  );
}
