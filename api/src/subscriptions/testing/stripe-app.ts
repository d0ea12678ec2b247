import crypto from 'node:crypto';
import type { StripeConfig } from '../../config.js';
import type { Env } from '../../config-schema.js';
import { PayoutAccountEntity } from '../../payouts/entity.js';
import { startTestServer, type TestServer, type TestUser } from '../../testing/server.js';
import { onboardAccount } from './stripe-connect-server.js';
import { startStripeServer, type StripeTestServer } from './stripe-server.js';

/** The app with PAYMENTS=stripe against a local Stripe-shaped server (stripe-server.ts), for the Stripe tests. */
export interface StripeApp {
  stripeApi: StripeTestServer;
  server: TestServer;
  stripeConfig: StripeConfig;
  webhookSecret: string;
  priceId: string;
  close(): Promise<void>;
}

export const TEST_PRICE_ID = 'price_test_weekly';

/** `env`: more settings for the app (a test's FUNDS_HOLD_HOURS). */
export async function startStripeApp(env: Env = {}): Promise<StripeApp> {
  const stripeApi = await startStripeServer();
  const webhookSecret = `whsec_${crypto.randomBytes(16).toString('hex')}`;
  const server = await startTestServer({
    PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_giftlink',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_giftlink',
    STRIPE_PRICE_ID: TEST_PRICE_ID,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: stripeApi.url,
    ...env,
  });
  return {
    stripeApi,
    server,
    stripeConfig: server.deps.config.stripe as StripeConfig,
    webhookSecret,
    priceId: TEST_PRICE_ID,
    close: async () => {
      await server.close();
      await stripeApi.close();
    },
  };
}

/** Sets up `who`'s payouts at the Stripe test server: onboarding, Stripe's account then complete, read back as the return page does. */
export async function readyStripePayoutsFor(app: StripeApp, who: TestUser): Promise<void> {
  await app.server.request('POST', '/api/payouts/onboarding', { token: who.token });
  const row = await app.server.deps.db.manager.findOneByOrFail(PayoutAccountEntity, { userId: who.user._id });
  onboardAccount(app.stripeApi.objects, row.accountId);
  const res = await app.server.request('GET', '/api/payouts?refresh=true', { token: who.token });
  if (res.body.status !== 'ready') throw new Error(`payouts setup failed: ${JSON.stringify(res.body)}`);
}
