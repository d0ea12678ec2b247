import { centsToDollars } from '../../contract/money.js';
import type { PayoutsResponse } from '../../contract/payouts.js';
import { payoutFailureReason } from '../../contract/texts.js';
import type { PayoutAccount } from './entity.js';

/** GET /api/payouts: not started until an account exists; the bank, what is asked for and a refused payout only when known. */
export function presentPayouts(account: PayoutAccount | null): PayoutsResponse {
  if (!account) return { status: 'not_started' };
  const requirements = JSON.parse(account.requirements) as string[];
  return {
    status: account.status,
    ...(account.bankLast4 ? { bankLast4: account.bankLast4 } : {}),
    ...(requirements.length ? { requirements } : {}),
    ...(account.failedPayoutCents !== null && account.failedPayoutAt
      ? {
          payoutFailed: {
            amount: centsToDollars(account.failedPayoutCents),
            reason: payoutFailureReason(account.failedPayoutCode, account.failedPayoutMessage),
            at: account.failedPayoutAt.toISOString(),
          },
        }
      : {}),
  };
}
