/**
 * The account-closing rules, written once: when an account may be closed. Every later credit is
 * refused here while it can still happen (a balance, escrow that expiry returns, a pending deposit
 * or withdrawal, a renewal) or, for an order refund, kept in `system:unclaimed` (orders/service.ts): refusing the closing because of an
 * anonymous gift would show its recipient, by name, that the giver is still here.
 */
import { formatCents } from '../../contract/money.js';
import { giveLinkHoldsEscrow, PAYMENT_STILL_PENDING, withdrawBalanceFirst } from '../../contract/texts.js';

export interface MoneyHeld {
  /** The user's balance. */
  balanceCents: number;
  /** What the user's give links still hold in escrow, together. */
  escrowCents: number;
  /** Deposits and withdrawals still waiting on the payments provider: settling one may credit the balance. */
  pendingPayments?: number;
  /** A subscription that would still charge: active and renewing, or past due (its invoice may be retried). */
  renewingSubscription?: boolean;
}

export type CloseRefusal = { code: 'balance_held' | 'escrow_held' | 'payment_pending' | 'subscription_renewing'; message: string };

/** Deleting an account must not leave a card being charged: the subscription is cancelled first. */
export const CANCEL_SUBSCRIPTION_FIRST =
  'Cancel your subscription first (Manage Subscription): your account can be deleted once it no longer renews.';

/** Why the account may not be closed yet (money it still holds, with how to get it out), or null when it may. */
export function cannotClose({
  balanceCents,
  escrowCents,
  pendingPayments = 0,
  renewingSubscription = false,
}: MoneyHeld): CloseRefusal | null {
  if (balanceCents > 0) return { code: 'balance_held', message: withdrawBalanceFirst(formatCents(balanceCents)) };
  if (escrowCents > 0) return { code: 'escrow_held', message: giveLinkHoldsEscrow(formatCents(escrowCents)) };
  if (pendingPayments > 0) return { code: 'payment_pending', message: PAYMENT_STILL_PENDING };
  if (renewingSubscription) return { code: 'subscription_renewing', message: CANCEL_SUBSCRIPTION_FIRST };
  return null;
}
