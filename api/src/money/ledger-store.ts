import type { EntityManager } from 'typeorm';
import { isPostgres, run, sql, type SqlValue } from '../db/sql.js';
import { LedgerEntryEntity } from './entity.js';

/**
 * The ledger's statements (money/ledger.ts has its rules): the conditional updates of cached
 * balances and the transfer rows with their entries, run in the caller's transaction.
 */

/** One transfer and its two entries, as they are written. */
export interface TransferRecord {
  id: string;
  kind: string;
  actorUserId: string | null;
  reference: string | null;
  createdAt: Date;
  entries: [TransferEntry, TransferEntry];
}

export interface TransferEntry {
  id: string;
  account: string;
  amountCents: number;
}

/** The values $1-$11 of RECORD_TRANSFER and MOVE_BETWEEN_USERS. */
const recordValues = (t: TransferRecord): SqlValue[] => [
  t.id,
  t.kind,
  t.actorUserId,
  t.reference,
  t.createdAt,
  ...t.entries.flatMap((e) => [e.id, e.account, e.amountCents]),
];

/** Writes the transfer and its entries: one statement on PostgreSQL, two on SQLite. */
async function recordTransfer(em: EntityManager, transfer: TransferRecord): Promise<void> {
  const record = recordValues(transfer);
  if (isPostgres(em)) await run(em, RECORD_TRANSFER, record);
  else {
    await run(em, INSERT_TRANSFER, record.slice(0, 5));
    await run(em, INSERT_ENTRIES, [transfer.id, transfer.createdAt, ...record.slice(5)]);
  }
}

const INSERT_TRANSFER = sql('INSERT INTO ledger_transfers (id, kind, actor_user_id, reference, created_at) VALUES ($1, $2, $3, $4, $5)');
const INSERT_ENTRIES = sql(
  'INSERT INTO ledger_entries (id, transfer_id, account, amount_cents, created_at) VALUES ($3, $1, $4, $5, $2), ($6, $1, $7, $8, $2)',
);
/** PostgreSQL: the transfer and its entries in one statement (one round trip). */
const RECORD_TRANSFER = sql(
  `WITH t AS (INSERT INTO ledger_transfers (id, kind, actor_user_id, reference, created_at) VALUES ($1, $2, $3, $4, $5))
   INSERT INTO ledger_entries (id, transfer_id, account, amount_cents, created_at) VALUES ($6, $1, $7, $8, $5), ($9, $1, $10, $11, $5)`,
);

/*
 * A cached balance moves by `$1` only while it stays within [floor, MAX_SAFE_INTEGER]: the bounds
 * are `balance BETWEEN $3 AND $4`, parameters that stay within ±MAX_SAFE_INTEGER.
 */
const MOVE_USER_BALANCE = sql(
  `UPDATE users SET balance_cents = balance_cents + $1
   WHERE id = $2 AND balance_cents BETWEEN $3 AND $4 AND (closed_at IS NULL OR balance_cents + $1 < balance_cents) RETURNING balance_cents`,
);
const MOVE_ACCOUNT_BALANCE = sql(
  'UPDATE ledger_accounts SET balance_cents = balance_cents + $1 WHERE key = $2 AND balance_cents BETWEEN $3 AND $4 RETURNING balance_cents',
);
/** Escrow and system accounts get their row on first use (race-safe: the insert is an upsert). */
const UPSERT_ACCOUNT_BALANCE = sql(
  `INSERT INTO ledger_accounts (key, kind, balance_cents, created_at) VALUES ($2, $5, $1, $6)
   ON CONFLICT (key) DO UPDATE SET balance_cents = ledger_accounts.balance_cents + excluded.balance_cents
   WHERE ledger_accounts.balance_cents BETWEEN $3 AND $4
   RETURNING balance_cents`,
);

/** What a conditional update of a balance answers: the new balance, or undefined when it was out of bounds. */
type Moved = Promise<number | undefined>;
const newBalance = ({ rows }: { rows: { balance_cents: string | number }[] }) =>
  rows.length === 1 ? Number(rows[0].balance_cents) : undefined;

/** Moves a user's balance by `delta` while it is within [low, high] and the account open (a closed one may only lose). */
async function moveUserBalance(em: EntityManager, userId: string, delta: number, low: number, high: number): Moved {
  return newBalance(await run<{ balance_cents: string | number }>(em, MOVE_USER_BALANCE, [delta, userId, low, high]));
}

/** Moves an existing escrow or system account's balance by `delta` while it is within [low, high]. */
async function moveAccountBalance(em: EntityManager, key: string, delta: number, low: number, high: number): Moved {
  return newBalance(await run<{ balance_cents: string | number }>(em, MOVE_ACCOUNT_BALANCE, [delta, key, low, high]));
}

/** `moveAccountBalance`, making the account (of `kind`, at `now`) with `delta` when it has no row yet. */
async function upsertAccountBalance(
  em: EntityManager,
  key: string,
  kind: string,
  delta: number,
  [low, high]: [number, number],
  now: Date,
): Moved {
  return newBalance(await run<{ balance_cents: string | number }>(em, UPSERT_ACCOUNT_BALANCE, [delta, key, low, high, kind, now]));
}

/** One leg of a transfer: the account, how much its cached balance moves, and the bounds it must be within. */
export interface BalanceLeg {
  key: string;
  kind: 'user' | 'escrow' | 'system';
  /** The account key's id part: a user's id for `user:`. */
  id: string;
  delta: number;
  low: number;
  high: number;
}

/**
 * Moves both legs' cached balances, in the order given (the lock order), and records the transfer
 * when both moved, in as few round trips as the database allows: one statement for two people's
 * balances on PostgreSQL, else a conditional update per leg and the record. Answers the new balance
 * of each account that moved; a leg missing from it could not move (the transfer is then not
 * recorded, and the caller's transaction must roll back).
 */
export async function moveAndRecord(
  em: EntityManager,
  legs: [BalanceLeg, BalanceLeg],
  record: TransferRecord,
  now: Date,
): Promise<Map<string, number>> {
  if (isPostgres(em) && legs.every((leg) => leg.kind === 'user')) {
    const moved = await moveBetweenUsers(em, record, [userLeg(legs[0]), userLeg(legs[1])]);
    return new Map([...moved].map(([userId, balance]) => [`user:${userId}`, balance]));
  }
  const balances = new Map<string, number>();
  for (const leg of legs) {
    const balance = await moveLeg(em, leg, now);
    if (balance === undefined) return balances;
    balances.set(leg.key, balance);
  }
  await recordTransfer(em, record);
  return balances;
}

const userLeg = ({ id, delta, low, high }: BalanceLeg): UserLeg => ({ userId: id, delta, low, high });

function moveLeg(em: EntityManager, leg: BalanceLeg, now: Date): Moved {
  if (leg.kind === 'user') return moveUserBalance(em, leg.id, leg.delta, leg.low, leg.high);
  // An escrow account that was never credited holds nothing: a debit of it makes no row.
  if (leg.kind === 'escrow' && leg.delta < 0) return moveAccountBalance(em, leg.key, leg.delta, leg.low, leg.high);
  return upsertAccountBalance(em, leg.key, leg.kind, leg.delta, [leg.low, leg.high], now);
}

/** One user's leg of `moveBetweenUsers`: their id, the delta and the bounds their balance must be within. */
interface UserLeg {
  userId: string;
  delta: number;
  low: number;
  high: number;
}

/**
 * PostgreSQL: both users' conditional updates, and the transfer with its entries when both moved,
 * in one statement (`legs` in key order). Answers the new balance of each user whose balance moved.
 */
async function moveBetweenUsers(em: EntityManager, transfer: TransferRecord, legs: [UserLeg, UserLeg]): Promise<Map<string, number>> {
  const params = [...recordValues(transfer), ...legs.flatMap(({ userId, delta, low, high }) => [userId, delta, low, high])];
  const { rows } = await run<{ id: string; balance_cents: string | number }>(em, MOVE_BETWEEN_USERS, params);
  return new Map(rows.map((row) => [row.id, Number(row.balance_cents)]));
}

/** $1-$11 as RECORD_TRANSFER; then per leg, in key order: the user's id, the delta, the bounds ($12-$15, $16-$19). */
const MOVE_BETWEEN_USERS = sql(
  `WITH locked AS MATERIALIZED (
     SELECT id FROM users WHERE id IN ($12, $16) ORDER BY id COLLATE "C" FOR NO KEY UPDATE
   ), moved AS (
     UPDATE users u SET balance_cents = u.balance_cents + CASE WHEN u.id = $12 THEN $13::bigint ELSE $17::bigint END
     FROM locked
     WHERE u.id = locked.id
       AND (u.closed_at IS NULL OR u.id = (CASE WHEN $13::bigint < 0 THEN $12 ELSE $16 END))
       AND u.balance_cents BETWEEN CASE WHEN u.id = $12 THEN $14::bigint ELSE $18::bigint END
                               AND CASE WHEN u.id = $12 THEN $15::bigint ELSE $19::bigint END
     RETURNING u.id, u.balance_cents
   ), t AS (
     INSERT INTO ledger_transfers (id, kind, actor_user_id, reference, created_at)
     SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM moved) = 2
   ), e AS (
     INSERT INTO ledger_entries (id, transfer_id, account, amount_cents, created_at)
     SELECT v.id, $1, v.account, v.amount, $5
     FROM (VALUES ($6::varchar, $7::varchar, $8::bigint), ($9::varchar, $10::varchar, $11::bigint)) AS v (id, account, amount)
     WHERE (SELECT count(*) FROM moved) = 2
   )
   SELECT id, balance_cents FROM moved`,
);

/** The sum of an account's entries, in cents. */
export async function entriesTotal(em: EntityManager, key: string): Promise<number> {
  const row = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('COALESCE(SUM(e.amountCents), 0)', 'total')
    .where('e.account = :key', { key })
    .getRawOne<{ total: string | number }>();
  return Number(row?.total ?? 0);
}

/** The sum of each account's entries, in cents. */
export async function entriesByAccount(em: EntityManager): Promise<Map<string, number>> {
  const sums = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('e.account', 'account')
    .addSelect('SUM(e.amountCents)', 'total')
    .groupBy('e.account')
    .getRawMany<{ account: string; total: string | number }>();
  return new Map(sums.map((s) => [s.account, Number(s.total)]));
}

/** Transfers whose entries are not exactly two summing to zero. */
export async function unbalancedTransfers(em: EntityManager): Promise<string[]> {
  const unbalanced = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('e.transferId', 'transferId')
    .groupBy('e.transferId')
    .having('COUNT(*) <> 2 OR SUM(e.amountCents) <> 0')
    .getRawMany<{ transferId: string }>();
  return unbalanced.map((u) => u.transferId);
}

/** Entries that credited a user's balance after their account closed. */
export async function creditsToClosedAccounts(em: EntityManager): Promise<string[]> {
  const closedCredits: { id: string }[] = await em.query(
    `SELECT e.id FROM ledger_entries e JOIN users u ON e.account = 'user:' || u.id
     WHERE e.amount_cents > 0 AND u.closed_at IS NOT NULL AND e.created_at > u.closed_at`,
  );
  return closedCredits.map((c) => c.id);
}
