import type { PayoutStatus } from '../../contract/payouts.js';
import type { ConnectAccountState } from '../payments/connect.js';

/**
 * An account's payouts status from the provider's fields: ready once payouts are enabled with
 * nothing due; details needed while onboarding is unfinished or something is due; restricted when
 * the provider disabled it after the details were given.
 */
export function payoutStatusOf(account: ConnectAccountState): Exclude<PayoutStatus, 'not_started'> {
  if (account.payoutsEnabled && account.currentlyDue.length === 0 && !account.disabledReason) return 'ready';
  if (!account.detailsSubmitted) return 'details_needed';
  if (account.disabledReason) return 'restricted';
  return 'details_needed';
}
