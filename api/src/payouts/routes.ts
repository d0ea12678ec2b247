import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import type { DashboardResponse, OnboardingResponse } from '../../contract/payouts.js';
import { presentPayouts } from './presenter.js';
import {
  completeSandboxOnboarding,
  createConnect,
  dashboardLink,
  payoutAccountOf,
  refreshPayouts,
  startOnboarding,
  type PayoutsDeps,
} from './service.js';

/** Settings → Payouts: the user's connected account for withdrawals. */
export function payoutRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const payouts: PayoutsDeps = {
    db: deps.db,
    connect: createConnect(deps.config, deps.db, deps.clock),
    publicUrl: deps.config.publicUrl,
    clock: deps.clock,
  };
  const router = new Router<AppState>();
  // Each of these asks the payments provider (an account, a link, a read): a tighter limit than a plain read.
  const limitProvider = routeLimit(deps.limits, deps.config, 'payouts', 'Too many payouts requests. Please wait a minute and try again.');

  serve(router, 'GET /api/payouts', [authenticate], async (ctx, { query }) => {
    const { id } = actingUser(ctx, { userId: query.userId });
    if (query.refresh === 'true') await limitProvider(ctx, async () => undefined);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentPayouts(query.refresh === 'true' ? await refreshPayouts(payouts, id) : await payoutAccountOf(deps.db, id));
  });

  serve(router, 'POST /api/payouts/onboarding', [limitProvider, authenticate], async (ctx, { body }) => {
    const answer: OnboardingResponse = { url: await startOnboarding(payouts, actingUser(ctx, { userId: body.userId }).id) };
    ctx.body = answer;
  });

  // Changing the bank once set up: a login link to Stripe's Express Dashboard, or the sandbox's bank form.
  serve(router, 'POST /api/payouts/dashboard', [limitProvider, authenticate], async (ctx, { body }) => {
    const answer: DashboardResponse = { url: await dashboardLink(payouts, actingUser(ctx, { userId: body.userId }).id) };
    ctx.body = answer;
  });

  // The sandbox's own onboarding form (PAYMENTS=sandbox only: 404 otherwise).
  serve(router, 'POST /api/payouts/sandbox/complete', [limitProvider, authenticate], async (ctx, { body }) => {
    const { id } = actingUser(ctx, { userId: body.userId });
    ctx.body = presentPayouts(
      await completeSandboxOnboarding(payouts, id, { routingNumber: body.routingNumber, accountNumber: body.accountNumber }),
    );
  });

  return router;
}
