import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { PaymentsProvider } from './provider.js';
import { SandboxPayments } from './sandbox.js';
import { createStripePayments } from './stripe.js';

/** The payments provider PAYMENTS names: the embedded sandbox (default, test mode) or Stripe. Built once, into Deps. */
export function createPaymentsProvider(
  config: Pick<Config, 'payments' | 'stripe' | 'sandboxPayoutDelayMs'>,
  db: Database,
  clock: () => Date,
): PaymentsProvider {
  return config.payments === 'stripe' ? createStripePayments(config, db) : new SandboxPayments(db, clock, config.sandboxPayoutDelayMs);
}
