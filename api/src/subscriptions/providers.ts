import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { SubscriptionProvider } from './provider.js';
import { SandboxSubscriptionProvider } from './sandbox-provider.js';
import { createStripeSubscriptionProvider } from './stripe-provider.js';

/** The subscription provider PAYMENTS names: the embedded sandbox (default, test mode) or Stripe. */
export function createSubscriptionProvider(
  config: Pick<Config, 'payments' | 'stripe'>,
  db: Database,
  clock: () => Date,
): SubscriptionProvider {
  return config.payments === 'stripe' ? createStripeSubscriptionProvider(config) : new SandboxSubscriptionProvider(db, clock);
}
