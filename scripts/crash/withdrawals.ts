/**
 * The crash test's checks of money going out, read from the database once the server is down:
 * every withdrawal held once and settled once (paid out, or returned to its user), none left
 * pending, each acknowledged one paid out, nothing paid out from the failing test bank account,
 * and the sandbox's own Transfers reconciled with the ledger (wallet/reconcile-transfers.ts).
 */
import { In } from 'typeorm';
import type { Database } from '../../api/src/db/index.js';
import { IdempotencyRecordEntity } from '../../api/src/http/idempotency-entity.js';
import { LedgerEntryEntity, LedgerTransferEntity } from '../../api/src/money/entity.js';
import { SYSTEM_PAYOUTS_PENDING } from '../../api/src/money/ledger.js';
import { listSandboxTransfers } from '../../api/src/payments/sandbox-transfers.js';
import { PaymentIntentEntity, type PaymentIntentKind } from '../../api/src/wallet/entity.js';
import { reconcileTransfers } from '../../api/src/wallet/reconcile-transfers.js';
import type { Account, Sent } from './traffic.js';

/** Intents left pending by the kill, by kind: the requests it caught between the provider and the ledger. */
export async function pendingIntents(db: Database): Promise<Partial<Record<PaymentIntentKind, number>>> {
  const pending = await db.manager.findBy(PaymentIntentEntity, { status: 'pending' });
  const counts: Partial<Record<PaymentIntentKind, number>> = {};
  for (const i of pending) counts[i.kind] = (counts[i.kind] ?? 0) + 1;
  return counts;
}

interface Tally {
  count: number;
  cents: number;
}
const tally = (map: Map<string, Tally>, key: string, cents: number) => {
  const t = map.get(key) ?? { count: 0, cents: 0 };
  map.set(key, { count: t.count + 1, cents: t.cents + cents });
};
const same = (a: Tally | undefined, b: Tally | undefined) => (a?.count ?? 0) === (b?.count ?? 0) && (a?.cents ?? 0) === (b?.cents ?? 0);

/** Checks every withdrawal's way through the ledger; answers the problems found (none when all is well) and prints a summary. */
export async function checkWithdrawals(db: Database, accounts: Account[], acked: Sent[]): Promise<string[]> {
  const em = db.manager;
  const problems: string[] = [];
  const intents = await em.findBy(PaymentIntentEntity, { kind: 'withdrawal' });
  const entries = await em.findBy(LedgerEntryEntity, { account: SYSTEM_PAYOUTS_PENDING });
  const transferIds = [...new Set(entries.map((e) => e.transferId))];
  const transfers = new Map(
    (transferIds.length ? await em.findBy(LedgerTransferEntity, { id: In(transferIds) }) : []).map((t) => [t.id, t]),
  );

  // What system:payouts-pending saw: holds coming in, payouts and returns going out.
  const holds = new Map<string, number>();
  const payouts = new Map<string, Tally>();
  const returned = new Map<string, Tally>();
  let pendingCents = 0;
  for (const e of entries) {
    const t = transfers.get(e.transferId);
    pendingCents += Number(e.amountCents);
    if (t?.kind === 'withdrawal' && e.amountCents > 0) holds.set(t.id, Number(e.amountCents));
    else if (t?.kind === 'withdrawal' && t.reference) tally(payouts, t.reference, -e.amountCents);
    else if (t?.kind === 'refund' && t.actorUserId) tally(returned, t.actorUserId, -e.amountCents);
    else problems.push(`an unexpected movement on ${SYSTEM_PAYOUTS_PENDING}: transfer ${e.transferId} (${t?.kind})`);
  }

  const failedOf = new Map<string, Tally>();
  const byRecord = new Map<string, string[]>();
  const failing = new Set(accounts.filter((a) => a.failsPayouts).map((a) => a.id));
  const status = { pending: 0, succeeded: 0, failed: 0 };
  for (const i of intents) {
    if (i.status === 'pending' || i.status === 'succeeded' || i.status === 'failed') status[i.status] += 1;
    else problems.push(`withdrawal ${i.id} is in a card payment's state, ${i.status}`);
    if (i.status === 'pending') problems.push(`withdrawal ${i.id} is still pending after recovery`);
    if (holds.get(i.id) !== i.amountCents) problems.push(`withdrawal ${i.id} has no hold of its amount`);
    if (i.status === 'succeeded') {
      const paid = payouts.get(i.providerReference ?? '');
      if (!paid || paid.count !== 1 || paid.cents !== i.amountCents)
        problems.push(`withdrawal ${i.id} succeeded but was paid out ${paid?.count ?? 0} times (${paid?.cents ?? 0} cents)`);
      payouts.delete(i.providerReference ?? '');
      if (failing.has(i.userId)) problems.push(`withdrawal ${i.id} was paid out to the failing test bank account`);
    }
    if (i.status === 'failed') tally(failedOf, i.userId, i.amountCents);
    if (i.idempotencyRecordId) byRecord.set(i.idempotencyRecordId, [...(byRecord.get(i.idempotencyRecordId) ?? []), i.status]);
  }
  for (const [reference, paid] of payouts) problems.push(`a payout ${reference} (${paid.cents} cents) matches no succeeded withdrawal`);
  // A withdrawal both paid out and returned, or failed and kept, shows here: returns differ from failures.
  for (const a of accounts)
    if (!same(returned.get(a.id), failedOf.get(a.id)))
      problems.push(
        `${a.username}: ${returned.get(a.id)?.count ?? 0} withdrawals returned (${returned.get(a.id)?.cents ?? 0} cents) ` +
          `for ${failedOf.get(a.id)?.count ?? 0} failed (${failedOf.get(a.id)?.cents ?? 0} cents)`,
      );
  if (pendingCents !== 0) problems.push(`${SYSTEM_PAYOUTS_PENDING} still holds ${pendingCents} cents`);
  const everything = new Date(0);
  for (const d of await reconcileTransfers(em, await listSandboxTransfers(em, everything), everything))
    problems.push(`transfer ${d.reference}: ${d.problem}`);

  // Each acknowledged withdrawal: its key's one withdrawal, paid out.
  const ackedOut = acked.filter((s) => s.op.kind === 'withdrawal');
  for (const s of ackedOut) {
    const record = await em.findOneBy(IdempotencyRecordEntity, { userId: s.op.user.id, key: s.key });
    const became = record ? byRecord.get(record.id) : undefined;
    if (became?.length !== 1 || became[0] !== 'succeeded')
      problems.push(`acknowledged withdrawal ${s.key} became ${JSON.stringify(became ?? 'nothing')}`);
    if (s.op.user.failsPayouts) problems.push(`a withdrawal to the failing test bank account was acknowledged (${s.key})`);
  }

  const failingTried = intents.filter((i) => failing.has(i.userId));
  const failingBack = [...failing].reduce((sum, id) => sum + (returned.get(id)?.cents ?? 0), 0);
  console.log(
    `  withdrawals: ${intents.length} (${status.succeeded} paid out, ${status.failed} returned, ${status.pending} pending), ` +
      `${ackedOut.length} acknowledged; failing bank account: ${failingTried.length} tried, ` +
      `${failingTried.filter((i) => i.status === 'failed').length} failed, ${failingBack} cents back; ` +
      `${SYSTEM_PAYOUTS_PENDING} ${pendingCents} cents`,
  );
  return problems;
}
