import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { SubscriptionEntity } from './entity.js';
import { presentSubscriptionConfig, presentSubscriptionInfo } from './presenter.js';
import { SandboxPayments } from '../payments/sandbox.js';
import type { SubscriptionInfoResponse } from '../../contract/subscriptions.js';
import { cancelSubscription, createPaymentIntent, createSubscription } from './service.js';
import { confirmSandboxPayment } from './sandbox-confirm.js';

/**
 * The four subscription calls of PRODUCT.md §7, the page's config and the sandbox's card confirm.
 * Identity is the token's: a `userId` naming anyone else is a 403 (`actingUser`).
 */
export function subscriptionRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /subscriptions/config', (ctx) => {
    ctx.body = presentSubscriptionConfig(deps.config);
  });

  serve(router, 'POST /subscriptions/create-payment-intent', [authenticate], async (ctx, { body }) => {
    const user = actingUser(ctx, { userId: body.userId });
    ctx.body = await createPaymentIntent(deps, user, body.productId);
  });

  serve(router, 'POST /subscriptions/create-subscription', [authenticate], async (ctx, { body }) => {
    const user = actingUser(ctx, { userId: body.userId });
    ctx.body = await createSubscription(deps, user, body);
  });

  serve(router, 'GET /subscriptions/get-subscription-info/:userId', [authenticate], async (ctx, { params }) => {
    const user = actingUser(ctx, { userId: params.userId });
    const sub = await deps.db.manager.findOneBy(SubscriptionEntity, { userId: user.id });
    ctx.set('Cache-Control', 'no-store');
    const body: SubscriptionInfoResponse = { subscriptionInfo: presentSubscriptionInfo(sub, user, deps.clock(), deps.config) };
    ctx.body = body;
  });

  serve(router, 'POST /subscriptions/cancel', [authenticate], async (ctx, { body }) => {
    const user = actingUser(ctx, { userId: body.userId });
    ctx.body = await cancelSubscription(deps, user, body);
  });

  // The sandbox's stand-in for Stripe Elements (test mode only).
  serve(router, 'POST /subscriptions/sandbox/confirm', [authenticate], async (ctx, { body }) => {
    if (!(deps.payments instanceof SandboxPayments)) throw notFound();
    ctx.body = await confirmSandboxPayment(deps, deps.payments, currentUser(ctx), body);
  });

  return router;
}
