import { OnboardingResponse, PayoutsResponse } from '../../../contract/payouts.js';
import { json, type AnswerMap } from './shape.js';

/** Settings → Payouts: the connected account withdrawals go to. */
export const payoutAnswers: AnswerMap = {
  'GET /api/payouts': [json(200, PayoutsResponse, "The user's payouts status")],
  'POST /api/payouts/onboarding': [json(200, OnboardingResponse, 'The onboarding page to send the user to')],
  'POST /api/payouts/dashboard': [json(200, OnboardingResponse, 'Where the user changes their bank account once payouts are set up')],
  'POST /api/payouts/sandbox/complete': [json(200, PayoutsResponse, 'The payouts status after the test bank account (PAYMENTS=sandbox)')],
};
