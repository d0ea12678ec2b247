/**
 * Money a card payment took for an account found closed when it settled (settle.ts booked it to
 * `system:unclaimed`): the card is refunded with a key of its own, then the ledger gives the
 * booking back to `system:payments`. Recovery runs it again for any left `unclaimed`.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { SYSTEM_PAYMENTS, SYSTEM_UNCLAIMED, transfer } from '../money/ledger.js';
import type { WalletPayments } from '../payments/provider.js';
import { PaymentIntentEntity } from './entity.js';
import { claim } from './settle.js';

export interface UnclaimedDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

/** True when this call refunded it; a provider that does not answer leaves it `unclaimed` for the next run. */
export async function refundUnclaimed(deps: UnclaimedDeps, intentId: string): Promise<boolean> {
  const intent = await deps.db.manager.findOneBy(PaymentIntentEntity, { id: intentId });
  if (!intent || intent.status !== 'unclaimed' || !intent.providerReference) return false;
  const reference = intent.providerReference;
  try {
    await deps.payments.refundCard(reference, `${intent.idempotencyKey}:refund`);
  } catch (err) {
    deps.log?.warn({ err, intent: intent.id }, 'refund of a closed account’s payment not confirmed; asked again later');
    return false;
  }
  return deps.db.transaction(async (em) => {
    if (!(await claim(em, intent, 'refunded', null, 'unclaimed'))) return false;
    await transfer(em, { from: SYSTEM_UNCLAIMED, to: SYSTEM_PAYMENTS, amountCents: intent.amountCents, kind: 'refund', reference });
    return true;
  });
}
