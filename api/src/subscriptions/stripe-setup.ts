/**
 * `npm run stripe:setup`: finds or creates, once, the Stripe Product and its weekly $1.99 recurring
 * Price (lookup key `giftlink_weekly`) and prints the STRIPE_PRICE_ID to set. Safe to run again:
 * it finds what it made (the Price by its lookup key, the Product by its fixed id) and every create
 * sends an idempotency key. Needs STRIPE_SECRET_KEY (and STRIPE_API_BASE in tests). Stripe's own
 * error text is printed as it is (a wrong key, a missing permission), for the person running it.
 */
import { pathToFileURL } from 'node:url';
import type Stripe from 'stripe';
import { SUBSCRIPTION_PRICE_CENTS } from '../../contract/limits.js';
import { SUBSCRIPTION_PRODUCT_ID } from '../../contract/subscriptions.js';
import { ConfigError, environment, loadConfig } from '../config.js';
import { stripeClient } from '../payments/stripe-client.js';

export const PRICE_LOOKUP_KEY = 'giftlink_weekly';

const isWeekly199 = (price: Stripe.Price) =>
  price.unit_amount === SUBSCRIPTION_PRICE_CENTS &&
  price.currency === 'usd' &&
  price.recurring?.interval === 'week' &&
  price.recurring.interval_count === 1;

export interface SetupResult {
  priceId: string;
  productId: string;
  created: boolean;
}

/** Finds or creates the Product and the weekly Price; answers the Price's id. */
export async function setUpStripePrice(stripe: Stripe): Promise<SetupResult> {
  const found = await stripe.prices.list({ lookup_keys: [PRICE_LOOKUP_KEY], active: true, limit: 1 });
  const existing = found.data[0];
  if (existing) {
    if (!isWeekly199(existing))
      throw new Error(
        `The Stripe price ${existing.id} (lookup key ${PRICE_LOOKUP_KEY}) is not $1.99 USD a week: archive it in the Dashboard and run this again.`,
      );
    const productId = typeof existing.product === 'string' ? existing.product : existing.product.id;
    return { priceId: existing.id, productId, created: false };
  }

  let product: Stripe.Product;
  try {
    product = await stripe.products.retrieve(SUBSCRIPTION_PRODUCT_ID);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
    product = await stripe.products.create(
      {
        id: SUBSCRIPTION_PRODUCT_ID,
        name: 'Giftlink weekly subscription',
        description: 'The verified badge, other people’s links on their profiles, your link’s visitor breakdown and the community server.',
      },
      { idempotencyKey: `giftlink-setup:product:${SUBSCRIPTION_PRODUCT_ID}` },
    );
  }
  const price = await stripe.prices.create(
    {
      product: product.id,
      unit_amount: SUBSCRIPTION_PRICE_CENTS,
      currency: 'usd',
      recurring: { interval: 'week', interval_count: 1 },
      lookup_key: PRICE_LOOKUP_KEY,
      nickname: 'Weekly $1.99',
    },
    { idempotencyKey: `giftlink-setup:price:${PRICE_LOOKUP_KEY}:${SUBSCRIPTION_PRICE_CENTS}` },
  );
  return { priceId: price.id, productId: product.id, created: true };
}

async function main(): Promise<void> {
  // Only the secret key is needed here: the price this prints is what PAYMENTS=stripe still lacks.
  const config = loadConfig({ ...environment(), PAYMENTS: 'sandbox' });
  if (!config.stripe?.secretKey) throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY is required for stripe:setup');
  const result = await setUpStripePrice(stripeClient(config.stripe));
  console.log(`${result.created ? 'Created' : 'Found'} the weekly $1.99 price of product ${result.productId}. Set:`);
  console.log(`STRIPE_PRICE_ID=${result.priceId}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
