import type { EntityManager } from 'typeorm';
import { run, sql } from '../db/sql.js';
import { DisputeEntity, type Dispute, type DisputeStatus } from './entity.js';

/** The statements of disputes (money/disputes.ts has the rules), in the caller's transaction. */

/** The card payment a provider reference names: its transfer, and whose balance it credited. */
const DEPOSIT_BY_REFERENCE = sql(
  `SELECT t.id, e.account, e.amount_cents FROM ledger_transfers t JOIN ledger_entries e ON e.transfer_id = t.id
   WHERE t.reference = $1 AND t.kind = 'deposit' AND e.amount_cents > 0`,
);
/** The transfers a dispute made, oldest first. */
const DISPUTE_TRANSFERS = sql(
  `SELECT t.id, f.account AS from_account, c.account AS to_account, c.amount_cents
   FROM ledger_transfers t
   JOIN ledger_entries f ON f.transfer_id = t.id AND f.amount_cents < 0
   JOIN ledger_entries c ON c.transfer_id = t.id AND c.amount_cents > 0
   WHERE t.reference = $1 AND t.kind = 'dispute' ORDER BY t.id`,
);
const OWED = sql(
  `SELECT COALESCE(SUM(unrecovered_cents - repaid_cents), 0) AS owed FROM disputes
   WHERE user_id = $1 AND status <> 'won' AND unrecovered_cents > repaid_cents`,
);
const OWING_DISPUTES = sql(
  `SELECT id, unrecovered_cents - repaid_cents AS owed FROM disputes
   WHERE user_id = $1 AND status <> 'won' AND unrecovered_cents > repaid_cents ORDER BY created_at, id`,
);
const REPAID = sql('UPDATE disputes SET repaid_cents = repaid_cents + $1, updated_at = $3 WHERE id = $2');
const SET_STATUS = sql('UPDATE disputes SET status = $1, updated_at = $3 WHERE id = $2 AND status = $4');
const SET_UNRECOVERED = sql('UPDATE disputes SET unrecovered_cents = $1, updated_at = $3 WHERE id = $2');

export async function depositByReference(
  em: EntityManager,
  reference: string,
): Promise<{ transferId: string; account: string; amountCents: number } | undefined> {
  const { rows } = await run<{ id: string; account: string; amount_cents: string | number }>(em, DEPOSIT_BY_REFERENCE, [reference]);
  const row = rows[0];
  return row && { transferId: row.id, account: row.account, amountCents: Number(row.amount_cents) };
}

export async function disputeTransfers(em: EntityManager, disputeId: string): Promise<{ from: string; to: string; cents: number }[]> {
  const { rows } = await run<{ from_account: string; to_account: string; amount_cents: string | number }>(em, DISPUTE_TRANSFERS, [
    disputeId,
  ]);
  return rows.map((r) => ({ from: r.from_account, to: r.to_account, cents: Number(r.amount_cents) }));
}

export const findDispute = (em: EntityManager, id: string): Promise<Dispute | null> => em.findOneBy(DisputeEntity, { id });

export async function insertDispute(em: EntityManager, dispute: Dispute): Promise<void> {
  await em.insert(DisputeEntity, { ...dispute });
}

/** Moves a dispute from `from` to `to`; false when it was not in `from`. */
export async function setDisputeStatus(em: EntityManager, id: string, from: DisputeStatus, to: DisputeStatus, now: Date): Promise<boolean> {
  return (await run(em, SET_STATUS, [to, id, now, from])).changes === 1;
}

export async function setUnrecovered(em: EntityManager, id: string, cents: number, now: Date): Promise<void> {
  await run(em, SET_UNRECOVERED, [cents, id, now]);
}

/** What a person owes after disputes of their card payments, in cents. */
export async function owedBy(em: EntityManager, userId: string): Promise<number> {
  const { rows } = await run<{ owed: string | number }>(em, OWED, [userId]);
  return Number(rows[0]?.owed ?? 0);
}

export async function owingDisputes(em: EntityManager, userId: string): Promise<{ id: string; owedCents: number }[]> {
  const { rows } = await run<{ id: string; owed: string | number }>(em, OWING_DISPUTES, [userId]);
  return rows.map((r) => ({ id: r.id, owedCents: Number(r.owed) }));
}

export async function addRepaid(em: EntityManager, id: string, cents: number, now: Date): Promise<void> {
  await run(em, REPAID, [cents, id, now]);
}
