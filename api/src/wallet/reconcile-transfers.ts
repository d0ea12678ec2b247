/**
 * Reconciliation of withdrawals: every withdrawal the ledger settled as sent has its Transfer at
 * the provider (same amount, to the user's connected account, not reversed); every Transfer the
 * provider made for a withdrawal (its metadata names the withdrawal's key) is one the ledger
 * settled; a withdrawal given back to the balance has no Transfer standing. A Transfer whose
 * withdrawal is still pending (a crash between the provider's answer and the ledger) is settled from
 * it by the job, as recovery would settle it, and only reported where nothing may be written.
 */
import { In, MoreThanOrEqual, type EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { centsToDollars } from '../../contract/money.js';
import type { Database } from '../db/index.js';
import { LedgerEntryEntity, LedgerTransferEntity } from '../money/entity.js';
import type { ProviderTransfer } from '../payments/provider.js';
import { PayoutAccountEntity } from '../payouts/entity.js';
import { PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { PENDING_GRACE_MS } from './intents.js';
import type { Discrepancy } from './reconcile.js';
import { settleSucceeded } from './settle.js';

const dollars = (cents: number) => `$${centsToDollars(cents).toFixed(2)}`;
const standing = (t: ProviderTransfer) => t.amountCents - t.reversedCents;

/** The withdrawals the transfers name (by the reference the ledger settled, or by the key in their metadata), and those of the window. */
async function withdrawalsOf(em: EntityManager, transfers: ProviderTransfer[], since: Date): Promise<PaymentIntent[]> {
  const refs = transfers.map((t) => t.reference);
  const keys = transfers.flatMap((t) => (t.idempotencyKey ? [t.idempotencyKey] : []));
  const found = new Map<string, PaymentIntent>();
  for (const intent of await em.find(PaymentIntentEntity, { where: { kind: 'withdrawal', createdAt: MoreThanOrEqual(since) } }))
    found.set(intent.id, intent);
  for (let i = 0; i < Math.max(refs.length, keys.length); i += 500) {
    const where = [
      ...(refs.length > i ? [{ kind: 'withdrawal' as const, providerReference: In(refs.slice(i, i + 500)) }] : []),
      ...(keys.length > i ? [{ kind: 'withdrawal' as const, idempotencyKey: In(keys.slice(i, i + 500)) }] : []),
    ];
    for (const intent of await em.find(PaymentIntentEntity, { where })) found.set(intent.id, intent);
  }
  return [...found.values()];
}

/** What the ledger sent out for each reference (`system:payouts-pending → system:payments`), in cents. */
async function sentByReference(em: EntityManager, references: string[]): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  for (let i = 0; i < references.length; i += 500) {
    const transfers = await em.find(LedgerTransferEntity, { where: { reference: In(references.slice(i, i + 500)), kind: 'withdrawal' } });
    if (transfers.length === 0) continue;
    const entries = await em.find(LedgerEntryEntity, { where: { transferId: In(transfers.map((t) => t.id)) } });
    for (const transfer of transfers) {
      const amount = entries
        .filter((e) => e.transferId === transfer.id && Number(e.amountCents) > 0)
        .reduce((s, e) => s + Number(e.amountCents), 0);
      sent.set(transfer.reference!, (sent.get(transfer.reference!) ?? 0) + amount);
    }
  }
  return sent;
}

/** Each user's connected account, where their withdrawals go. */
async function accountsOf(em: EntityManager, userIds: string[]): Promise<Map<string, string>> {
  const accounts = new Map<string, string>();
  for (let i = 0; i < userIds.length; i += 500)
    for (const row of await em.find(PayoutAccountEntity, { where: { userId: In(userIds.slice(i, i + 500)) } }))
      accounts.set(row.userId, row.accountId);
  return accounts;
}

/** Whether a Transfer is, in full and standing, the one its withdrawal asked for. */
const settles = (intent: PaymentIntent, t: ProviderTransfer, account: string | null) =>
  t.reversedCents === 0 && t.amountCents === intent.amountCents && t.destination === account;

/** What is wrong between one withdrawal and a Transfer made for it, or null. */
function transferProblem(intent: PaymentIntent, t: ProviderTransfer, sent: number, account: string | null, now: Date): string | null {
  const which = `withdrawal ${intent.id}`;
  if (intent.status === 'failed')
    return standing(t) > 0
      ? `${which} was given back to the balance, yet the provider sent ${dollars(standing(t))} to ${t.destination}: the user has it twice; reverse the transfer or take it back from the balance`
      : null;
  if (intent.status === 'pending') {
    if (standing(t) === 0 || now.getTime() - intent.createdAt.getTime() <= PENDING_GRACE_MS) return null;
    return settles(intent, t, account)
      ? `the provider sent ${dollars(t.amountCents)} for ${which} and the ledger has not settled it (still pending): the next payments.resolve or payments.reconcile settles it; if it stays, settle it by hand`
      : `the provider sent ${dollars(standing(t))} to ${t.destination} for ${which}, which the ledger holds as pending for ${dollars(intent.amountCents)} to ${account ?? 'no account'}: look it up at the provider and settle it by hand`;
  }
  if (intent.providerReference !== t.reference)
    return standing(t) > 0
      ? `the provider sent ${dollars(standing(t))} for ${which} a second time (the ledger settled it as ${intent.providerReference ?? 'nothing'}): reverse this transfer`
      : null;
  if (t.reversedCents > 0)
    return `the provider reversed ${dollars(t.reversedCents)} of ${which} and the ledger still counts ${dollars(sent)} sent: the money is back with the platform, not with the user`;
  if (t.amountCents !== sent) return `the provider sent ${dollars(t.amountCents)} for ${which} and the ledger sent ${dollars(sent)}`;
  if (t.destination !== account)
    return `the provider sent ${which} to ${t.destination}, which is not the user's connected account (${account ?? 'none'})`;
  return null;
}

/** The discrepancies between `transfers` (the provider's, since `since`) and the ledger's withdrawals read through `em`. */
export async function reconcileTransfers(
  em: EntityManager,
  transfers: ProviderTransfer[],
  since: Date,
  now: Date = new Date(),
): Promise<Discrepancy[]> {
  const intents = await withdrawalsOf(em, transfers, since);
  const byReference = new Map(intents.filter((i) => i.providerReference).map((i) => [i.providerReference!, i]));
  const byKey = new Map(intents.map((i) => [i.idempotencyKey, i]));
  const sent = await sentByReference(em, [...new Set([...transfers.map((t) => t.reference), ...byReference.keys()])]);
  const accounts = await accountsOf(em, [...new Set(intents.map((i) => i.userId))]);
  const found: Discrepancy[] = [];
  const seen = new Set<string>();
  for (const t of transfers) {
    const intent = byReference.get(t.reference) ?? (t.idempotencyKey ? byKey.get(t.idempotencyKey) : undefined);
    if (!intent) {
      if (standing(t) > 0)
        found.push({
          reference: t.reference,
          problem: `the provider sent ${dollars(standing(t))} to ${t.destination} for a withdrawal the ledger does not know`,
        });
      continue;
    }
    if (intent.providerReference === t.reference) seen.add(intent.id);
    const problem = transferProblem(intent, t, sent.get(t.reference) ?? 0, accounts.get(intent.userId) ?? null, now);
    if (problem) found.push({ reference: t.reference, problem });
  }
  for (const intent of intents) {
    if (intent.status !== 'succeeded' || seen.has(intent.id) || intent.createdAt < since) continue;
    found.push({
      reference: intent.providerReference ?? intent.id,
      problem: `the ledger settled withdrawal ${intent.id} of ${dollars(intent.amountCents)} as sent and the provider shows no transfer for it`,
    });
  }
  return found;
}

/**
 * Settles each withdrawal still pending past the grace whose Transfer the provider shows standing,
 * in full, to the user's account: what recovery would settle on asking again, without asking.
 * Answers how many it settled.
 */
export async function settleFromTransfers(
  deps: { db: Database; log?: Logger },
  transfers: ProviderTransfer[],
  now: Date = new Date(),
): Promise<number> {
  const keyed = new Map(transfers.filter((t) => t.idempotencyKey).map((t) => [t.idempotencyKey!, t]));
  if (keyed.size === 0) return 0;
  const em = deps.db.manager;
  const keys = [...keyed.keys()];
  const pending: PaymentIntent[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await em.find(PaymentIntentEntity, {
      where: { kind: 'withdrawal', status: 'pending', idempotencyKey: In(keys.slice(i, i + 500)) },
    });
    pending.push(...rows.filter((row) => now.getTime() - row.createdAt.getTime() > PENDING_GRACE_MS));
  }
  const accounts = await accountsOf(em, [...new Set(pending.map((i) => i.userId))]);
  let settled = 0;
  for (const intent of pending) {
    const t = keyed.get(intent.idempotencyKey)!;
    if (!settles(intent, t, accounts.get(intent.userId) ?? null) || !(await settleSucceeded(deps.db, intent, t.reference))) continue;
    settled += 1;
    deps.log?.warn({ intent: intent.id, reference: t.reference }, 'withdrawal settled from the Transfer the provider shows');
  }
  return settled;
}
