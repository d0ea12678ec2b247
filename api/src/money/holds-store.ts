import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import { dateFrom, run, sql } from '../db/sql.js';
import { HeldLotEntity } from './entity.js';

/** The statements of money on hold (money/holds.ts has its rules), run in the ledger's transaction. */

/** The database a transaction runs on (the key of its hold policy). */
export const databaseOf = (em: EntityManager): object => em.connection;

/** A lot as the rules read it. */
export interface LotRow {
  id: string;
  originTransferId: string | null;
  payerIdentity: PayerIdentity | null;
  remainingCents: number;
  availableAt: Date;
}

/** As whom a card payment was made, or money moved: by name, or as an anonymous giver. */
export type PayerIdentity = 'named' | 'anonymous';

interface RawLot {
  id: string;
  origin_transfer_id: string | null;
  payer_identity: PayerIdentity | null;
  remaining_cents: string | number;
  available_at: unknown;
}

const lotOf = (r: RawLot): LotRow => ({
  id: r.id,
  originTransferId: r.origin_transfer_id,
  payerIdentity: r.payer_identity,
  remainingCents: Number(r.remaining_cents),
  availableAt: dateFrom(r.available_at),
});

/** Held lots first to leave: the latest release first, so what stays behind is what frees soonest. */
const HELD_LOTS = sql(
  `SELECT id, origin_transfer_id, payer_identity, remaining_cents, available_at FROM held_lots
   WHERE account = $1 AND available_at > $2 AND remaining_cents > 0 ORDER BY available_at DESC, id`,
);
/** The held lots of one card payment, in an account, first to leave. */
const HELD_LOTS_OF_ORIGIN = sql(
  `SELECT id, origin_transfer_id, payer_identity, remaining_cents, available_at FROM held_lots
   WHERE account = $1 AND available_at > $2 AND remaining_cents > 0 AND origin_transfer_id = $3 ORDER BY available_at DESC, id`,
);
/** The held lots a transfer brought into an account, first to leave. */
const HELD_LOTS_FROM_SOURCE = sql(
  `SELECT id, origin_transfer_id, payer_identity, remaining_cents, available_at FROM held_lots
   WHERE account = $1 AND available_at > $2 AND remaining_cents > 0 AND source_transfer_id = $3 ORDER BY available_at DESC, id`,
);
const TAKE_FROM_LOT = sql('UPDATE held_lots SET remaining_cents = remaining_cents - $1 WHERE id = $2 AND remaining_cents >= $1');
const INSERT_LOT = sql(
  `INSERT INTO held_lots (id, account, origin_transfer_id, payer_identity, source_transfer_id, amount_cents, remaining_cents, available_at, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8)`,
);
const HELD_SUMMARY = sql(
  `SELECT COALESCE(SUM(remaining_cents), 0) AS held, MIN(available_at) AS next FROM held_lots
   WHERE account = $1 AND available_at > $2 AND remaining_cents > 0`,
);
/** Which accounts hold lots of a card payment still on hold (a dispute follows them), with the transfers that brought them. */
const ACCOUNTS_HOLDING_ORIGIN = sql(
  `SELECT account, source_transfer_id, SUM(remaining_cents) AS held FROM held_lots
   WHERE origin_transfer_id = $1 AND available_at > $2 AND remaining_cents > 0 GROUP BY account, source_transfer_id ORDER BY account`,
);

/** Which of an account's held lots a transfer takes: one card payment's, or those one transfer brought. */
export type LotFilter = { origin: string } | { source: string };

/** An account's lots on hold at `now`, in the order they are spent (only those of `only`, when given). */
export async function heldLots(em: EntityManager, account: string, now: Date, only?: LotFilter): Promise<LotRow[]> {
  const { rows } = !only
    ? await run<RawLot>(em, HELD_LOTS, [account, now])
    : 'origin' in only
      ? await run<RawLot>(em, HELD_LOTS_OF_ORIGIN, [account, now, only.origin])
      : await run<RawLot>(em, HELD_LOTS_FROM_SOURCE, [account, now, only.source]);
  return rows.map(lotOf);
}

/** Takes `cents` from a lot; false when it no longer had them. */
export async function takeFromLot(em: EntityManager, id: string, cents: number): Promise<boolean> {
  return (await run(em, TAKE_FROM_LOT, [cents, id])).changes === 1;
}

export interface NewLot {
  id: string;
  account: string;
  originTransferId: string | null;
  payerIdentity: PayerIdentity | null;
  sourceTransferId: string;
  amountCents: number;
  availableAt: Date;
  createdAt: Date;
}

export async function insertLot(em: EntityManager, lot: NewLot): Promise<void> {
  await run(em, INSERT_LOT, [
    lot.id,
    lot.account,
    lot.originTransferId,
    lot.payerIdentity,
    lot.sourceTransferId,
    lot.amountCents,
    lot.availableAt,
    lot.createdAt,
  ]);
}

export interface HeldSummary {
  heldCents: number;
  /** When the first of it becomes available; null when nothing is held. */
  nextReleaseAt: Date | null;
}

const summaryOf = (rows: { held: string | number; next: unknown }[]): HeldSummary => {
  const row = rows[0];
  const heldCents = Number(row?.held ?? 0);
  return { heldCents, nextReleaseAt: heldCents > 0 && row?.next ? dateFrom(row.next) : null };
};

/** What an account holds at `now`, inside a transaction. */
export async function heldSummaryIn(em: EntityManager, account: string, now: Date): Promise<HeldSummary> {
  return summaryOf((await run<{ held: string | number; next: unknown }>(em, HELD_SUMMARY, [account, now])).rows);
}

/** The accounts holding a card payment's money still on hold: how much each, and the transfers that brought it there. */
export async function accountsHoldingOrigin(
  em: EntityManager,
  origin: string,
  now: Date,
): Promise<{ account: string; heldCents: number; sourceTransferIds: string[] }[]> {
  const { rows } = await run<{ account: string; source_transfer_id: string; held: string | number }>(em, ACCOUNTS_HOLDING_ORIGIN, [
    origin,
    now,
  ]);
  const byAccount = new Map<string, { account: string; heldCents: number; sourceTransferIds: string[] }>();
  for (const r of rows) {
    const entry = byAccount.get(r.account) ?? { account: r.account, heldCents: 0, sourceTransferIds: [] };
    entry.heldCents += Number(r.held);
    entry.sourceTransferIds.push(r.source_transfer_id);
    byAccount.set(r.account, entry);
  }
  return [...byAccount.values()];
}

/** What an account's lots from one transfer still hold, on hold or not (a gift returned takes no more than this). */
export async function heldFromTransfer(em: EntityManager, account: string, transferId: string, now: Date): Promise<number> {
  const { rows } = await run<{ held: string | number }>(em, HELD_FROM_TRANSFER, [account, transferId, now]);
  return Number(rows[0]?.held ?? 0);
}
const HELD_FROM_TRANSFER = sql(
  `SELECT COALESCE(SUM(remaining_cents), 0) AS held FROM held_lots
   WHERE account = $1 AND source_transfer_id = $2 AND available_at > $3 AND remaining_cents > 0`,
);

/** For the invariants: lots with less than nothing left, or more than they came with. */
export async function lotsOutOfRange(em: EntityManager): Promise<string[]> {
  const rows = await em
    .createQueryBuilder(HeldLotEntity, 'l')
    .select('l.id', 'id')
    .where('l.remainingCents < 0 OR l.remainingCents > l.amountCents')
    .getRawMany<{ id: string }>();
  return rows.map((r) => r.id);
}

/** For the invariants: what each account holds at `now`. */
export async function heldByAccount(em: EntityManager, now: Date): Promise<Map<string, number>> {
  const rows = await em
    .createQueryBuilder(HeldLotEntity, 'l')
    .select('l.account', 'account')
    .addSelect('SUM(l.remainingCents)', 'held')
    .where('l.availableAt > :now AND l.remainingCents > 0', { now: dateParam(em, now) })
    .groupBy('l.account')
    .getRawMany<{ account: string; held: string | number }>();
  return new Map(rows.map((r) => [r.account, Number(r.held)]));
}
