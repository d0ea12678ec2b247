import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { routeLimit } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import {
  DashboardBody,
  OnboardingBody,
  PayoutsQuery,
  SandboxBankBody,
  type DashboardResponse,
  type OnboardingResponse,
} from '../../contract/payouts.js';
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
  const router = new Router<AppState>({ prefix: '/api' });
  // Each of these asks the payments provider (an account, a link, a read): a tighter limit than a plain read.
  const limitProvider = routeLimit(deps.limits, deps.config, 'payouts', 'Too many payouts requests. Please wait a minute and try again.');

  router.get(
    '/payouts',
    authenticate,
    validate({ query: PayoutsQuery }, async (ctx, { query }) => {
      const { id } = actingUser(ctx, { userId: query.userId });
      if (query.refresh === 'true') await limitProvider(ctx, async () => undefined);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = presentPayouts(query.refresh === 'true' ? await refreshPayouts(payouts, id) : await payoutAccountOf(deps.db, id));
    }),
  );

  router.post(
    '/payouts/onboarding',
    limitProvider,
    authenticate,
    validate({ body: OnboardingBody }, async (ctx, { body }) => {
      const answer: OnboardingResponse = { url: await startOnboarding(payouts, actingUser(ctx, { userId: body.userId }).id) };
      ctx.body = answer;
    }),
  );

  // Changing the bank once set up: a login link to Stripe's Express Dashboard, or the sandbox's bank form.
  router.post(
    '/payouts/dashboard',
    limitProvider,
    authenticate,
    validate({ body: DashboardBody }, async (ctx, { body }) => {
      const answer: DashboardResponse = { url: await dashboardLink(payouts, actingUser(ctx, { userId: body.userId }).id) };
      ctx.body = answer;
    }),
  );

  // The sandbox's own onboarding form (PAYMENTS=sandbox only: 404 otherwise).
  router.post(
    '/payouts/sandbox/complete',
    limitProvider,
    authenticate,
    validate({ body: SandboxBankBody }, async (ctx, { body }) => {
      const { id } = actingUser(ctx, { userId: body.userId });
      ctx.body = presentPayouts(
        await completeSandboxOnboarding(payouts, id, { routingNumber: body.routingNumber, accountNumber: body.accountNumber }),
      );
    }),
  );

  return router;
}
