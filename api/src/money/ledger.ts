/**
 * The ledger: the one way money moves (DESIGN.md, "Money: one ledger").
 *
 * Accounts are named by a string key:
 * - `user:<userId>`   a person's balance. Its cached balance is users.balance_cents (CHECK >= 0),
 *                     the column the rest of the API already reads; never below zero.
 * - `escrow:<linkId>` what a give link holds. Cached in a ledger_accounts row (created on first
 *                     use), never below zero.
 * - `system:<name>`   the outside world, e.g. `system:payments` (card charges in, payouts out).
 *                     Cached in ledger_accounts; may go negative: minus its balance is what
 *                     has come in from outside.
 *
 * A transfer, run inside the caller's transaction, writes one ledger_transfers row and two
 * ledger_entries rows (−amount on `from`, +amount on `to`, so all entries sum to zero) and moves
 * both cached balances by conditional updates: a debit of a user or escrow account is
 * `SET balance = balance − x WHERE … AND balance >= x`, and if no row changed the caller's
 * error is thrown and the transaction rolls back. Two concurrent spends therefore can never both
 * pass, on SQLite (serialised writers) or PostgreSQL (row locks, re-checked after the wait).
 * Both updates are applied in key order so concurrent transfers lock rows in one order.
 *
 * Invariants (checked by `ledgerInvariants` in the tests): the entries of all accounts sum to
 * zero; each cached balance equals the sum of its entries; no user balance is below zero; no
 * closed account is ever credited (its balance update refuses a credit).
 */
import type { EntityManager } from 'typeorm';
import { ADD_MONEY } from '../../contract/texts.js';
import type { Database } from '../db/index.js';
import { isPostgres, run, sql, type SqlValue } from '../db/sql.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { LedgerAccountEntity, LedgerEntryEntity, LedgerTransferEntity, type TransferKind } from './entity.js';
import { appendedRowId } from '../db/ids.js';

export type AccountKey = `user:${string}` | `escrow:${string}` | `system:${string}`;
export type { TransferKind };

export const userAccount = (userId: string): AccountKey => `user:${userId}`;
export const escrowAccount = (linkId: string): AccountKey => `escrow:${linkId}`;
/** The payment provider: deposits come from it, withdrawals go to it. */
export const SYSTEM_PAYMENTS: AccountKey = 'system:payments';
/** Withdrawals on their way out: held here from the user's balance until the provider's payout settles. */
export const SYSTEM_PAYOUTS_PENDING: AccountKey = 'system:payouts-pending';
/** The marketplace: an item gift or a wishlist purchase pays the order placed for its recipient. */
export const SYSTEM_MARKETPLACE: AccountKey = 'system:marketplace';
/** The weekly subscription paid from a balance: each week's charge moves here. */
export const SYSTEM_SUBSCRIPTIONS: AccountKey = 'system:subscriptions';
/** Refunds owed to someone who has closed their account, kept for them (support pays them out); each transfer's reference names the order. */
export const SYSTEM_UNCLAIMED: AccountKey = 'system:unclaimed';

export interface TransferInput {
  from: AccountKey;
  to: AccountKey;
  /** Positive whole cents. */
  amountCents: number;
  kind: TransferKind;
  /** The user whose request moves the money (null for system work such as expiry sweeps). */
  actorUserId?: string | null;
  /** A payment provider's reference, when there is one. */
  reference?: string | null;
  /** Makes the error thrown when `from` (a user or escrow account) cannot cover the amount (made only then). */
  insufficient?: () => AppError;
  /** The transfer's id, when the caller records it elsewhere in the same go (a link use); else a new one. */
  id?: string;
}

export interface TransferResult {
  transferId: string;
  /** Balances after the transfer, in cents. */
  fromBalanceCents: number;
  toBalanceCents: number;
}

export const insufficientFunds = () => badRequest(ADD_MONEY, 'insufficient_funds');

interface ParsedKey {
  key: AccountKey;
  kind: 'user' | 'escrow' | 'system';
  id: string;
}

function parseKey(key: AccountKey): ParsedKey {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const id = key.slice(colon + 1);
  if ((kind !== 'user' && kind !== 'escrow' && kind !== 'system') || !id || key.length > 80)
    throw new Error(`ledger: bad account key ${key}`);
  return { key, kind, id };
}

/**
 * Moves `amountCents` from one account to another inside the caller's transaction (`em` from
 * `db.transaction`). Throws `input.insufficient()` (default: 'Add money to your account balance.')
 * when a user or escrow account would go below zero; nothing is written in that case once the
 * caller's transaction rolls back. Three statements (four on SQLite): a conditional update of each
 * cached balance, answering the new balance, and the transfer with its two entries.
 */
export async function transfer(em: EntityManager, input: TransferInput): Promise<TransferResult> {
  const { amountCents } = input;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw badRequest('Please enter a valid amount.', 'invalid_amount');
  if (input.from === input.to) throw new Error('ledger: a transfer needs two different accounts');
  const from = parseKey(input.from);
  const to = parseKey(input.to);

  // One lock order for every transfer: by account key.
  const legs = [
    { account: from, delta: -amountCents },
    { account: to, delta: amountCents },
  ].sort((a, b) => (a.account.key < b.account.key ? -1 : 1));
  const insufficient = input.insufficient ?? insufficientFunds;
  const createdAt = new Date();
  const transferId = input.id ?? appendedRowId();
  const record: SqlValue[] = [
    transferId,
    input.kind,
    input.actorUserId ?? null,
    input.reference ?? null,
    createdAt,
    appendedRowId(),
    from.key,
    -amountCents,
    appendedRowId(),
    to.key,
    amountCents,
  ];
  if (isPostgres(em) && from.kind === 'user' && to.kind === 'user') return transferBetweenUsers(em, legs, record, insufficient);

  const balances = new Map<AccountKey, number>();
  for (const leg of legs) balances.set(leg.account.key, await applyDelta(em, leg.account, leg.delta, createdAt, insufficient));
  if (isPostgres(em)) await run(em, RECORD_TRANSFER, record);
  else {
    await run(em, INSERT_TRANSFER, record.slice(0, 5));
    await run(em, INSERT_ENTRIES, [transferId, createdAt, ...record.slice(5)]);
  }
  return { transferId, fromBalanceCents: balances.get(from.key)!, toBalanceCents: balances.get(to.key)! };
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

/** Records the payment provider's reference on a transfer made before the provider answered. */
export async function setTransferReference(em: EntityManager, transferId: string, reference: string): Promise<void> {
  await em.update(LedgerTransferEntity, { id: transferId }, { reference });
}

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

/** The bounds a cached balance must be within for `delta` to move it: [floor, MAX_SAFE_INTEGER] after the move. */
function bounds(account: ParsedKey, delta: number): [low: number, high: number] {
  const floor = account.kind === 'system' ? -Number.MAX_SAFE_INTEGER : 0;
  return delta < 0 ? [floor - delta, Number.MAX_SAFE_INTEGER] : [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - delta];
}

/**
 * Changes one cached balance by a conditional update and answers the new balance. Debits of user
 * and escrow accounts need the balance to cover them; every change keeps the balance within
 * JavaScript's safe integers.
 */
async function applyDelta(em: EntityManager, account: ParsedKey, delta: number, now: Date, insufficient: () => AppError): Promise<number> {
  const [low, high] = bounds(account, delta);
  const moved =
    account.kind === 'user'
      ? await run<{ balance_cents: string | number }>(em, MOVE_USER_BALANCE, [delta, account.id, low, high])
      : // An escrow account that was never credited holds nothing: a debit of it makes no row.
        account.kind === 'escrow' && delta < 0
        ? await run<{ balance_cents: string | number }>(em, MOVE_ACCOUNT_BALANCE, [delta, account.key, low, high])
        : await run<{ balance_cents: string | number }>(em, UPSERT_ACCOUNT_BALANCE, [delta, account.key, low, high, account.kind, now]);
  if (moved.rows.length === 1) return Number(moved.rows[0].balance_cents);
  throw await refusal(em, account, delta, insufficient);
}

/**
 * Why `delta` could not move `account`'s balance: an unknown or closed user (nobody can reach a
 * closed account's balance, so nothing credits it), too little to cover it, or past the safe range.
 */
async function refusal(em: EntityManager, account: ParsedKey, delta: number, insufficient: () => AppError): Promise<AppError> {
  if (account.kind === 'user') {
    const user = await em.findOne(UserEntity, { where: { id: account.id }, select: { id: true, closedAt: true } });
    if (!user || (delta > 0 && user.closedAt)) return notFound('User not found');
  }
  if (delta < 0 && account.kind !== 'system') return insufficient();
  return badRequest('That amount is too large.', 'amount_too_large');
}

interface Leg {
  account: ParsedKey;
  delta: number;
}

/**
 * PostgreSQL, from one person's balance to another's (a gift of money): both conditional updates
 * and the transfer with its entries in one statement, one round trip instead of three (issue 15).
 * The two rows are locked first, in key order (`locked`: its sort comes before its row locks, and
 * `ORDER BY id COLLATE "C"` is the order of the `user:<id>` keys in JavaScript), so it takes its
 * locks in the order every other transfer does. The transfer and its entries are written only
 * when both balances moved; otherwise the caller's error is thrown and its transaction rolls back.
 */
async function transferBetweenUsers(
  em: EntityManager,
  legs: Leg[],
  record: SqlValue[],
  insufficient: () => AppError,
): Promise<TransferResult> {
  const params = [...record, ...legs.flatMap(({ account, delta }) => [account.id, delta, ...bounds(account, delta)])];
  const { rows } = await run<{ id: string; balance_cents: string | number }>(em, MOVE_BETWEEN_USERS, params);
  const moved = new Map(rows.map((row) => [row.id, Number(row.balance_cents)]));
  for (const { account, delta } of legs) if (!moved.has(account.id)) throw await refusal(em, account, delta, insufficient);
  // The debited leg is `from`'s, the credited one `to`'s.
  const balance = (sign: -1 | 1) => moved.get(legs.find((leg) => Math.sign(leg.delta) === sign)!.account.id)!;
  return { transferId: record[0] as string, fromBalanceCents: balance(-1), toBalanceCents: balance(1) };
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

/** The cached balance of an account, in cents (0 for an account never used). */
export async function balanceOf(em: EntityManager, key: AccountKey): Promise<number> {
  const account = parseKey(key);
  if (account.kind === 'user') {
    const user = await em.findOne(UserEntity, { where: { id: account.id }, select: { id: true, balanceCents: true } });
    if (!user) throw notFound('User not found');
    return user.balanceCents;
  }
  const row = await em.findOneBy(LedgerAccountEntity, { key: account.key });
  return row?.balanceCents ?? 0;
}

/** The sum of an account's entries, in cents: what its cached balance must equal. */
export async function entriesTotal(em: EntityManager, key: AccountKey): Promise<number> {
  const row = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('COALESCE(SUM(e.amountCents), 0)', 'total')
    .where('e.account = :key', { key })
    .getRawOne<{ total: string | number }>();
  return Number(row?.total ?? 0);
}

export interface BalanceMismatch {
  account: string;
  /** null when entries name an account with no cached balance. */
  cachedCents: number | null;
  entriesCents: number;
}

export interface LedgerInvariants {
  /** Must be 0. */
  sumOfAllEntries: number;
  /** Must be empty: accounts whose cached balance differs from the sum of their entries. */
  mismatchedBalances: BalanceMismatch[];
  /** Must be empty. */
  negativeUserBalances: { userId: string; balanceCents: number }[];
  /** Must be empty. */
  negativeEscrowBalances: { account: string; balanceCents: number }[];
  /** Transfers whose entries are not exactly two summing to zero; must be empty. */
  unbalancedTransfers: string[];
  /** Entries that credited a user's balance after their account closed; must be empty. */
  creditsToClosedAccounts: string[];
}

/** Checks the ledger's invariants over the whole database (for tests and diagnostics). */
export async function ledgerInvariants(db: Database): Promise<LedgerInvariants> {
  const em = db.manager;
  const sums = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('e.account', 'account')
    .addSelect('SUM(e.amountCents)', 'total')
    .groupBy('e.account')
    .getRawMany<{ account: string; total: string | number }>();
  const byAccount = new Map(sums.map((s) => [s.account, Number(s.total)]));
  const users = await em.find(UserEntity, { select: { id: true, balanceCents: true } });
  const accounts = await em.find(LedgerAccountEntity);

  const mismatchedBalances: BalanceMismatch[] = [];
  const cached = new Map<string, number>([
    ...users.map((u) => [userAccount(u.id), u.balanceCents] as const),
    ...accounts.map((a) => [a.key, a.balanceCents] as const),
  ]);
  for (const [account, cachedCents] of cached) {
    const entriesCents = byAccount.get(account) ?? 0;
    if (entriesCents !== cachedCents) mismatchedBalances.push({ account, cachedCents, entriesCents });
  }
  for (const [account, entriesCents] of byAccount)
    if (!cached.has(account) && entriesCents !== 0) mismatchedBalances.push({ account, cachedCents: null, entriesCents });

  const unbalanced = await em
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .select('e.transferId', 'transferId')
    .groupBy('e.transferId')
    .having('COUNT(*) <> 2 OR SUM(e.amountCents) <> 0')
    .getRawMany<{ transferId: string }>();

  const closedCredits: { id: string }[] = await em.query(
    `SELECT e.id FROM ledger_entries e JOIN users u ON e.account = 'user:' || u.id
     WHERE e.amount_cents > 0 AND u.closed_at IS NOT NULL AND e.created_at > u.closed_at`,
  );

  return {
    sumOfAllEntries: [...byAccount.values()].reduce((a, b) => a + b, 0),
    mismatchedBalances,
    negativeUserBalances: users.filter((u) => u.balanceCents < 0).map((u) => ({ userId: u.id, balanceCents: u.balanceCents })),
    negativeEscrowBalances: accounts
      .filter((a) => a.kind === 'escrow' && a.balanceCents < 0)
      .map((a) => ({ account: a.key, balanceCents: a.balanceCents })),
    unbalancedTransfers: unbalanced.map((u) => u.transferId),
    creditsToClosedAccounts: closedCredits.map((c) => c.id),
  };
}
