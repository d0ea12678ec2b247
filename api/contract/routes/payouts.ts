import { DashboardBody, OnboardingBody, OnboardingResponse, PayoutsQuery, PayoutsResponse, SandboxBankBody } from '../payouts.js';
import { json, type RouteSpec } from '../route-table.js';

/** Settings → Payouts: the connected account withdrawals go to. */
export const payoutRoutes = {
  'GET /api/payouts': { query: PayoutsQuery, answers: [json(200, PayoutsResponse, "The user's payouts status")] },
  'POST /api/payouts/onboarding': {
    body: OnboardingBody,
    answers: [json(200, OnboardingResponse, 'The onboarding page to send the user to')],
  },
  'POST /api/payouts/dashboard': {
    body: DashboardBody,
    answers: [json(200, OnboardingResponse, 'Where the user changes their bank account once payouts are set up')],
  },
  'POST /api/payouts/sandbox/complete': {
    body: SandboxBankBody,
    answers: [json(200, PayoutsResponse, 'The payouts status after the test bank account (PAYMENTS=sandbox)')],
  },
} satisfies Record<string, RouteSpec>;
