/**
 * The ledger: the one way money moves (docs/decisions/0019-the-ledger.md).
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
 * closed account is ever credited (its balance update refuses a credit); no held lot is below
 * zero, and no account holds more on hold than its balance (holds.ts).
 */
import type { EntityManager } from 'typeorm';
import { ADD_MONEY, balanceOwed } from '../../contract/texts.js';
import { formatCents } from '../../contract/money.js';
import { owedBy } from './disputes-store.js';
import type { Database } from '../db/index.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { LedgerAccountEntity, type TransferKind } from './entity.js';
import {
  creditsToClosedAccounts,
  entriesByAccount,
  entriesTotal as entriesOf,
  moveAndRecord,
  unbalancedTransfers,
  type BalanceLeg,
  type TransferRecord,
} from './ledger-store.js';
import { appendedRowId } from '../db/ids.js';
import { onOneSnapshot } from '../db/snapshot.js';
import { balanceChangedOnCommit, countOnCommit } from '../db/observer.js';
import { moveLots, type PayerIdentity } from './holds.js';
import { heldByAccount, lotsOutOfRange, type LotFilter } from './holds-store.js';

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
/** What disputes of card payments cost the platform: what neither the payer nor the money still on hold could cover. */
export const SYSTEM_LOSSES: AccountKey = 'system:losses';
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
  /** Take only this held money (a dispute's card payment, a returned gift's transfer); see holds.ts. */
  only?: LotFilter;
  /** As whom the actor moves the money: an anonymous gift, or a card payment made for one (holds.ts); default by name. */
  identity?: PayerIdentity;
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
 * caller's transaction rolls back. The store moves both cached balances by conditional updates and
 * records the transfer with its two entries (ledger-store.ts `moveAndRecord`), then the held lots follow.
 */
export async function transfer(em: EntityManager, input: TransferInput): Promise<TransferResult> {
  const { amountCents } = input;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw badRequest('Please enter a valid amount.', 'invalid_amount');
  if (input.from === input.to) throw new Error('ledger: a transfer needs two different accounts');
  const from = parseKey(input.from);
  const to = parseKey(input.to);

  // One lock order for every transfer: by account key.
  const legs = [withBounds(from, -amountCents), withBounds(to, amountCents)].sort((a, b) => (a.key < b.key ? -1 : 1)) as [
    BalanceLeg,
    BalanceLeg,
  ];
  const insufficient = input.insufficient ?? insufficientFunds;
  if (from.kind === 'user' && SPENDING.has(input.kind)) await refuseWhileOwing(em, from.id);
  const createdAt = new Date();
  const transferId = input.id ?? appendedRowId();
  const record: TransferRecord = {
    id: transferId,
    kind: input.kind,
    actorUserId: input.actorUserId ?? null,
    reference: input.reference ?? null,
    createdAt,
    entries: [
      { id: appendedRowId(), account: from.key, amountCents: -amountCents },
      { id: appendedRowId(), account: to.key, amountCents },
    ],
  };
  const balances = await moveAndRecord(em, legs, record, createdAt);
  for (const leg of legs) if (!balances.has(leg.key)) throw await refusal(em, leg, leg.delta, insufficient);
  const moved: TransferResult = { transferId, fromBalanceCents: balances.get(from.key)!, toBalanceCents: balances.get(to.key)! };
  // After the balances moved: their rows are locked, so the lots of these accounts change in turn.
  await moveLots(em, {
    transferId,
    kind: input.kind,
    from,
    to,
    amountCents,
    fromBalanceCents: moved.fromBalanceCents,
    only: input.only,
    identity: input.identity ?? 'named',
    leaving: to.key === SYSTEM_PAYOUTS_PENDING,
  });
  // The metrics' transfers by kind, once the caller's transaction has committed.
  countOnCommit(input.kind);
  // Each person whose balance moved is told their new one once it has committed (realtime/hub.ts).
  for (const side of [from, to]) if (side.kind === 'user') balanceChangedOnCommit(side.id);
  return moved;
}

/** What a person cannot do while a disputed card payment of theirs is owed (money/disputes.ts). */
const SPENDING = new Set<TransferKind>(['give', 'purchase', 'escrow', 'withdrawal', 'subscription']);

async function refuseWhileOwing(em: EntityManager, userId: string): Promise<void> {
  const owed = await owedBy(em, userId);
  if (owed > 0) throw new AppError(402, 'balance_owed', balanceOwed(formatCents(owed)));
}

/** The bounds a cached balance must be within for `delta` to move it: [floor, MAX_SAFE_INTEGER] after the move. */
function bounds(account: ParsedKey, delta: number): [low: number, high: number] {
  const floor = account.kind === 'system' ? -Number.MAX_SAFE_INTEGER : 0;
  return delta < 0 ? [floor - delta, Number.MAX_SAFE_INTEGER] : [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - delta];
}

/**
 * Why `delta` could not move `account`'s balance: an unknown or closed user (nobody can reach a
 * closed account's balance, so nothing credits it), too little to cover it, or past the safe range.
 */
async function refusal(
  em: EntityManager,
  account: Pick<ParsedKey, 'kind' | 'id'>,
  delta: number,
  insufficient: () => AppError,
): Promise<AppError> {
  if (account.kind === 'user') {
    const user = await em.findOne(UserEntity, { where: { id: account.id }, select: { id: true, closedAt: true } });
    if (!user || (delta > 0 && user.closedAt)) return notFound('User not found');
  }
  if (delta < 0 && account.kind !== 'system') return insufficient();
  return badRequest('That amount is too large.', 'amount_too_large');
}

/** A leg as the store moves it, with the bounds its balance must stay within. */
function withBounds(account: ParsedKey, delta: number): BalanceLeg {
  const [low, high] = bounds(account, delta);
  return { ...account, delta, low, high };
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
  return entriesOf(em, key);
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
  /** Held lots with less than nothing left or more than they came with; must be empty. */
  lotsOutOfRange: string[];
  /** Accounts holding more on hold than their balance; must be empty. */
  heldAboveBalance: { account: string; heldCents: number; balanceCents: number }[];
}

/** Checks the ledger's invariants over the whole database (for tests, diagnostics and backups), read through `db.manager`; holds as at `now`. */
export function ledgerInvariants(db: Pick<Database, 'manager'>, now: Date = new Date()): Promise<LedgerInvariants> {
  // One snapshot: a commit between two of these reads (a job's) would look like a broken invariant.
  return onOneSnapshot(db.manager, (em) => invariantsIn(em, now));
}

async function invariantsIn(em: EntityManager, now: Date): Promise<LedgerInvariants> {
  const byAccount = await entriesByAccount(em);
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

  return {
    sumOfAllEntries: [...byAccount.values()].reduce((a, b) => a + b, 0),
    mismatchedBalances,
    negativeUserBalances: users.filter((u) => u.balanceCents < 0).map((u) => ({ userId: u.id, balanceCents: u.balanceCents })),
    negativeEscrowBalances: accounts
      .filter((a) => a.kind === 'escrow' && a.balanceCents < 0)
      .map((a) => ({ account: a.key, balanceCents: a.balanceCents })),
    unbalancedTransfers: await unbalancedTransfers(em),
    creditsToClosedAccounts: await creditsToClosedAccounts(em),
    lotsOutOfRange: await lotsOutOfRange(em),
    heldAboveBalance: [...(await heldByAccount(em, now))]
      .map(([account, heldCents]) => ({ account, heldCents, balanceCents: cached.get(account) ?? 0 }))
      .filter((a) => a.heldCents > a.balanceCents),
  };
}

/** What `ledgerInvariants` found broken, one line each; empty when the ledger is sound. */
export function ledgerProblems(inv: LedgerInvariants): string[] {
  const some = (what: string, list: unknown[]) =>
    list.length ? [`${what}: ${JSON.stringify(list.slice(0, 5))}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`] : [];
  return [
    ...(inv.sumOfAllEntries === 0 ? [] : [`the entries sum to ${inv.sumOfAllEntries} cents, not 0`]),
    ...some('cached balances differ from their entries', inv.mismatchedBalances),
    ...some('user balances below zero', inv.negativeUserBalances),
    ...some('escrow balances below zero', inv.negativeEscrowBalances),
    ...some('transfers that do not balance', inv.unbalancedTransfers),
    ...some('credits to closed accounts', inv.creditsToClosedAccounts),
    ...some('held lots out of range', inv.lotsOutOfRange),
    ...some('accounts holding more than their balance', inv.heldAboveBalance),
  ];
}
