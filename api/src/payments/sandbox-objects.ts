/**
 * What the sandbox keeps of each kind in `sandbox_payment_objects` (payments/sandbox.ts), as JSON:
 * Stripe's objects cut down to what test mode needs.
 */
import type { ProviderPaymentIntentState, ProviderSubscriptionState } from './provider.js';
import type { SandboxCardOutcome } from './sandbox-holds.js';

export interface SandboxCustomerData {
  id: string;
  userId: string;
  email: string;
  /** The card saved for later deposits: what it does (pays or not) and its last 4 digits, never the number. */
  card?: { last4: string; pays: boolean; fingerprint?: string };
}
/** One card charge per idempotency key, with its outcome, so asking again answers the same. */
export interface SandboxChargeData {
  id: string;
  amountCents: number;
  outcome: SandboxCardOutcome;
  refunded?: boolean;
  /** The disputed test card's charge: when the sandbox disputes it, and whether it has. */
  disputeAt?: string;
  disputed?: boolean;
}
export interface SandboxSubscriptionData {
  id: string;
  customerId: string;
  status: ProviderSubscriptionState['status'];
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Whether the card the first payment was confirmed with is one that pays (renewals charge it). */
  cardPays: boolean;
}
export interface SandboxPaymentIntentData {
  id: string;
  status: ProviderPaymentIntentState['status'];
  amountCents: number;
  subscriptionId: string | null;
}
export type Data = {
  customer: SandboxCustomerData;
  subscription: SandboxSubscriptionData;
  payment_intent: SandboxPaymentIntentData;
  charge: SandboxChargeData;
};
