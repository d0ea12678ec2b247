/**
 * Reconciliation of the provider's records with the ledger: every card payment the provider took
 * and kept has its credit (to the payer, or to `system:unclaimed` for a closed account), one given
 * back has none left, one never taken credited nothing; every card deposit the ledger credited
 * has a payment the provider kept; and withdrawals match the provider's Transfers
 * (reconcile-transfers.ts). Run by the `payments.reconcile` job, the tests and `npm run backup`'s
 * checks; a discrepancy is reported in words a person acts on.
 */
import { In, MoreThanOrEqual, type EntityManager } from 'typeorm';
import { centsToDollars } from '../../contract/money.js';
import { LedgerEntryEntity, LedgerTransferEntity } from '../money/entity.js';
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import type { ProviderCharge, WalletPayments } from '../payments/provider.js';
import { PaymentIntentEntity } from './entity.js';
import { reconcileTransfers, settleFromTransfers } from './reconcile-transfers.js';

export interface Discrepancy {
  reference: string;
  problem: string;
}

/** How far back a run looks: longer than any payment stays unsettled. */
export const RECONCILE_WINDOW_MS = 7 * 24 * 60 * 60_000;

const CARD_KINDS = ['card_deposit', 'card_elements', 'card_hold', 'elements_hold'] as const;
const dollars = (cents: number) => `$${centsToDollars(cents).toFixed(2)}`;

/** What the ledger credited for each reference: deposits less refunds, in cents. */
async function netCredits(em: EntityManager, references: string[]): Promise<Map<string, number>> {
  const net = new Map<string, number>();
  for (let i = 0; i < references.length; i += 500) {
    const transfers = await em.find(LedgerTransferEntity, {
      where: { reference: In(references.slice(i, i + 500)), kind: In(['deposit', 'refund']) },
    });
    if (transfers.length === 0) continue;
    const credits = await em.find(LedgerEntryEntity, { where: { transferId: In(transfers.map((t) => t.id)) } });
    for (const transfer of transfers) {
      const amount = credits
        .filter((e) => e.transferId === transfer.id && Number(e.amountCents) > 0)
        .reduce((sum, e) => sum + Number(e.amountCents), 0);
      const ref = transfer.reference!;
      net.set(ref, (net.get(ref) ?? 0) + (transfer.kind === 'deposit' ? amount : -amount));
    }
  }
  return net;
}

/** The discrepancies between `charges` (the provider's, since `since`) and the ledger read through `em`. */
export async function reconcileCharges(em: EntityManager, charges: ProviderCharge[], since: Date): Promise<Discrepancy[]> {
  const intents = await em.find(PaymentIntentEntity, { where: { kind: In([...CARD_KINDS]), createdAt: MoreThanOrEqual(since) } });
  const byReference = new Map(intents.filter((i) => i.providerReference).map((i) => [i.providerReference!, i]));
  const references = [...new Set([...charges.map((c) => c.reference), ...byReference.keys()])];
  const net = await netCredits(em, references);
  const found: Discrepancy[] = [];
  const seen = new Set<string>();
  for (const charge of charges) {
    seen.add(charge.reference);
    const credited = net.get(charge.reference) ?? 0;
    // A landed gift's capture is still under way (recovery captures it): its credit came first.
    if (byReference.get(charge.reference)?.status === 'landed') continue;
    const expected = charge.status === 'succeeded' ? charge.amountCents : 0;
    if (credited === expected) continue;
    const problem =
      charge.status === 'succeeded'
        ? `the provider took ${dollars(charge.amountCents)} and the ledger credited ${dollars(credited)}`
        : `the provider ${charge.status === 'refunded' ? 'gave back' : 'never took'} ${dollars(charge.amountCents)} and the ledger still credits ${dollars(credited)}`;
    found.push({ reference: charge.reference, problem });
  }
  for (const [reference, intent] of byReference) {
    if (seen.has(reference) || intent.status !== 'succeeded' || (net.get(reference) ?? 0) === 0) continue;
    found.push({
      reference,
      problem: `the ledger credited ${dollars(intent.amountCents)} for a card payment the provider does not show as taken`,
    });
  }
  return found;
}

/** One line per discrepancy, for a log or a terminal. */
export const describeDiscrepancies = (found: Discrepancy[]): string[] => found.map((d) => `payment ${d.reference}: ${d.problem}`);

/**
 * The `payments.reconcile` job: the provider's card payments and withdrawals' Transfers of the
 * window against the ledger, each discrepancy logged as an error. A Transfer whose withdrawal is
 * still pending is settled from it first, as recovery would.
 */
export async function reconcileWithProvider(
  deps: { db: Database; payments: WalletPayments; log?: Logger },
  now: Date = new Date(),
): Promise<Discrepancy[]> {
  const since = new Date(now.getTime() - RECONCILE_WINDOW_MS);
  const transfers = await deps.payments.listTransfers(since);
  await settleFromTransfers(deps, transfers, now);
  const found = [
    ...(await reconcileCharges(deps.db.manager, await deps.payments.listCardPayments(since), since)),
    ...(await reconcileTransfers(deps.db.manager, transfers, since, now)),
  ];
  for (const line of describeDiscrepancies(found)) deps.log?.error({ reconciliation: true }, line);
  return found;
}
