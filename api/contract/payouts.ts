import { z } from 'zod';
import { dollars, isoTime } from './common.js';
import { INVALID_BANK_ACCOUNT } from './texts.js';

/** The signed-in user's own id, optional, as the wallet's routes take it (anyone else's is a 403). */
const userIdSchema = z.string().min(1).max(64).optional();

/** Where a user's payouts stand: set up once, then kept current by the provider's account updates. */
export const PAYOUT_STATUSES = ['not_started', 'details_needed', 'ready', 'restricted'] as const;
export const PayoutStatus = z.enum(PAYOUT_STATUSES);
export type PayoutStatus = z.infer<typeof PayoutStatus>;

/** GET /api/payouts?refresh=true asks the provider now (the page the onboarding returns to) instead of waiting for its webhook. */
export const PayoutsQuery = z.object({ userId: userIdSchema, refresh: z.enum(['true', 'false']).optional() });

/** POST /api/payouts/onboarding: `userId`, when sent, must be the signed-in user's own. */
export const OnboardingBody = z.object({ userId: userIdSchema });

/** GET /api/payouts: the status, the bank's last 4 digits once known, and what the provider still asks for. */
export const PayoutsResponse = z.object({
  status: PayoutStatus,
  bankLast4: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  /** The provider's requirement keys (`external_account`, `individual.dob.day`…); `requirementTexts` (texts.ts) words them. */
  requirements: z.array(z.string()).optional(),
  /**
   * The bank refused the last payout to it (after the Transfer: the money waits in the user's Stripe
   * balance until the bank details are fixed): how much, why in plain words, and when; gone once a later payout is paid.
   */
  payoutFailed: z.object({ amount: dollars, reason: z.string(), at: isoTime }).optional(),
});
export type PayoutsResponse = z.infer<typeof PayoutsResponse>;

/** POST /api/payouts/onboarding: the page to send the user to (Stripe's hosted onboarding, or the sandbox's own). */
export const OnboardingResponse = z.object({ url: z.string().min(1) });
export type OnboardingResponse = z.infer<typeof OnboardingResponse>;

/** POST /api/payouts/dashboard: where the user changes their bank account (Stripe's Express Dashboard, or the sandbox's bank form). */
export const DashboardBody = z.object({ userId: userIdSchema });
export type DashboardResponse = OnboardingResponse;

/** POST /api/payouts/sandbox/complete (PAYMENTS=sandbox): Stripe's test bank numbers, never stored beyond the last 4 digits. */
export const SandboxBankBody = z.object({
  userId: userIdSchema,
  routingNumber: z
    .string()
    .trim()
    .regex(/^\d{9}$/, INVALID_BANK_ACCOUNT),
  accountNumber: z
    .string()
    .trim()
    .regex(/^\d{4,17}$/, INVALID_BANK_ACCOUNT),
});
export type SandboxBankBody = z.infer<typeof SandboxBankBody>;
