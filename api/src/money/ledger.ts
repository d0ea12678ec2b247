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
 * zero; each cached balance equals the sum of its entries; no user balance is below zero.
 */
import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ADD_MONEY } from '../../contract/texts.js';
import type { Database } from '../db/index.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { LedgerAccountEntity, LedgerEntryEntity, LedgerTransferEntity, type LedgerAccount, type TransferKind } from './entities.js';

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
/** The weekly subscription paid from a balance (issue 12): each week's charge moves here. */
export const SYSTEM_SUBSCRIPTIONS: AccountKey = 'system:subscriptions';

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
  /** Thrown when `from` (a user or escrow account) cannot cover the amount. */
  insufficient?: AppError;
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
 * `db.transaction`). Throws `input.insufficient` (default: 'Add money to your account balance.')
 * when a user or escrow account would go below zero; nothing is written in that case once the
 * caller's transaction rolls back.
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
  for (const leg of legs) await applyDelta(em, leg.account, leg.delta, input.insufficient ?? insufficientFunds());

  const transferId = crypto.randomUUID();
  const createdAt = new Date();
  await em.insert(LedgerTransferEntity, {
    id: transferId,
    kind: input.kind,
    actorUserId: input.actorUserId ?? null,
    reference: input.reference ?? null,
    createdAt,
  });
  await em.insert(LedgerEntryEntity, [
    { id: crypto.randomUUID(), transferId, account: from.key, amountCents: -amountCents, createdAt },
    { id: crypto.randomUUID(), transferId, account: to.key, amountCents, createdAt },
  ]);
  return {
    transferId,
    fromBalanceCents: await balanceOf(em, from.key),
    toBalanceCents: await balanceOf(em, to.key),
  };
}

/** Records the payment provider's reference on a transfer made before the provider answered. */
export async function setTransferReference(em: EntityManager, transferId: string, reference: string): Promise<void> {
  await em.update(LedgerTransferEntity, { id: transferId }, { reference });
}

/**
 * Changes one cached balance by a conditional update. Debits of user and escrow accounts need
 * the balance to cover them; every change keeps the balance within JavaScript's safe integers.
 */
async function applyDelta(em: EntityManager, account: ParsedKey, delta: number, insufficient: AppError): Promise<void> {
  const floor = account.kind === 'system' ? -Number.MAX_SAFE_INTEGER : 0;
  // Parameters stay within ±MAX_SAFE_INTEGER: `balance + delta` stays in [floor, MAX_SAFE_INTEGER].
  const bound =
    delta < 0
      ? { sql: 'balance_cents >= :bound', bound: floor - delta }
      : { sql: 'balance_cents <= :bound', bound: Number.MAX_SAFE_INTEGER - delta };
  if (account.kind !== 'user') await ensureAccount(em, account);

  const update = em.createQueryBuilder().update(account.kind === 'user' ? UserEntity : LedgerAccountEntity);
  const result = await update
    .set({ balanceCents: () => 'balance_cents + :delta' })
    .where(account.kind === 'user' ? { id: account.id } : { key: account.key })
    .andWhere(bound.sql)
    .setParameters({ delta, bound: bound.bound })
    .execute();
  if (result.affected === 1) return;

  if (account.kind === 'user' && !(await em.existsBy(UserEntity, { id: account.id }))) throw notFound('User not found');
  if (delta < 0 && account.kind !== 'system') throw insufficient;
  throw badRequest('That amount is too large.', 'amount_too_large');
}

/** Escrow and system accounts get their row on first use (race-safe: insert or ignore). */
async function ensureAccount(em: EntityManager, account: ParsedKey): Promise<void> {
  const row: LedgerAccount = {
    key: account.key,
    kind: account.kind === 'system' ? 'system' : 'escrow',
    balanceCents: 0,
    createdAt: new Date(),
  };
  await em.createQueryBuilder().insert().into(LedgerAccountEntity).values(row).orIgnore().execute();
}

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

  return {
    sumOfAllEntries: [...byAccount.values()].reduce((a, b) => a + b, 0),
    mismatchedBalances,
    negativeUserBalances: users.filter((u) => u.balanceCents < 0).map((u) => ({ userId: u.id, balanceCents: u.balanceCents })),
    negativeEscrowBalances: accounts
      .filter((a) => a.kind === 'escrow' && a.balanceCents < 0)
      .map((a) => ({ account: a.key, balanceCents: a.balanceCents })),
    unbalancedTransfers: unbalanced.map((u) => u.transferId),
  };
}
