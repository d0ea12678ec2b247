import type { PayoutsResponse } from '../../contract/payouts.js';
import type { PayoutAccount } from './entity.js';

/** GET /api/payouts: not started until an account exists; the bank and what is asked for only when known. */
export function presentPayouts(account: PayoutAccount | null): PayoutsResponse {
  if (!account) return { status: 'not_started' };
  const requirements = JSON.parse(account.requirements) as string[];
  return {
    status: account.status,
    ...(account.bankLast4 ? { bankLast4: account.bankLast4 } : {}),
    ...(requirements.length ? { requirements } : {}),
  };
}
