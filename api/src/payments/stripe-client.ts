/** The Stripe SDK client and its errors as ours: what the Stripe provider and the webhook share. */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { ConfigError, type Config, type StripeConfig } from '../config.js';
import { AppError } from '../errors.js';
import { CARD_BLOCKED } from '../../contract/texts.js';

// The SDK is loaded on first use: only PAYMENTS=stripe needs it, and it is a large share of the server's start-up.
let sdk: typeof Stripe | undefined;
const loadSdk = (): typeof Stripe => (sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe);

/** The SDK client, pointed at STRIPE_API_BASE when set (tests). */
export function stripeClient(config: StripeConfig): Stripe {
  const StripeSdk = loadSdk();
  return new StripeSdk(config.secretKey, {
    ...(config.api ?? {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Giftlink' },
  });
}

/** The Stripe configuration, or a start-up error naming what is missing. */
export function requireStripeConfig(config: Pick<Config, 'stripe'>): StripeConfig {
  if (!config.stripe) throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENTS=stripe');
  return config.stripe;
}

export const paymentSetupIncomplete = () => new AppError(502, 'payment_setup_incomplete', 'Payment setup is incomplete. Please try again.');

/** Stripe's errors as ours: a card's decline keeps Stripe's text; anything else is the provider failing. */
export function stripeError(err: unknown): unknown {
  // No client yet means the SDK made no error.
  if (!sdk || !(err instanceof sdk.errors.StripeError)) return err;
  // Stripe's risk check (or the bank) calling it fraud gets our own clear text, never the bare decline.
  if (err instanceof sdk.errors.StripeCardError && err.decline_code === 'fraudulent')
    return new AppError(402, 'card_blocked', CARD_BLOCKED);
  if (err instanceof sdk.errors.StripeCardError) return new AppError(402, 'payment_declined', err.message);
  if (err.type === 'StripeIdempotencyError')
    return new AppError(409, 'idempotency_conflict', 'This request was already made with other details.');
  if (err.statusCode === 404) return new AppError(404, 'not_found', 'The payment provider does not know this payment.');
  return new AppError(502, 'payment_provider_error', 'The payment provider did not answer. Please try again.');
}

/** Runs one SDK call, mapping its errors (see stripeError). */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeError(err);
  }
}
