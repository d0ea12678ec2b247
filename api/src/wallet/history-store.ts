/**
 * The money history's one query: every ledger entry of an account with its kind, the other entry's
 * account and the running balance (a window sum), keyset-paged. Written by hand for the window sum.
 */
import type { EntityManager } from 'typeorm';
import type { MoneyHistoryKind } from '../../contract/wallet.js';
import { LedgerEntryEntity, LedgerTransferEntity } from '../money/entity.js';
import { userAccount } from '../money/ledger.js';

/**
 * The history kind of an entry, as SQL over the entry `e`, its transfer `t` and the transfer's other
 * entry `o`. A refund out of a link's escrow is the escrow coming back; any other refund (an order
 * refunded by the marketplace) is a refund.
 */
const KIND_SQL = `CASE
  WHEN t.kind = 'deposit' THEN 'deposit'
  WHEN t.kind = 'withdrawal' THEN 'withdrawal'
  WHEN t.kind IN ('give', 'release') AND e.amount_cents < 0 THEN 'gift_given'
  WHEN t.kind IN ('give', 'release') THEN 'gift_received'
  WHEN t.kind = 'escrow' THEN 'link_escrow'
  WHEN t.kind = 'refund' AND o.account LIKE 'escrow:%' THEN 'escrow_returned'
  WHEN t.kind = 'refund' THEN 'refund'
  WHEN t.kind = 'purchase' THEN 'purchase'
  WHEN t.kind = 'subscription' THEN 'subscription'
  WHEN t.kind = 'dispute' THEN 'dispute'
  WHEN t.kind = 'return' THEN 'gift_returned'
  ELSE 'other' END`;

/**
 * Orders entries of the same instant (the clock's millisecond): money in before money out, so no
 * running balance ever reads below zero, whatever order the two really came in.
 */
const TIE_SQL = (alias: string) => `CASE WHEN ${alias}.amount_cents > 0 THEN 0 ELSE 1 END`;

export interface HistoryRow {
  id: string;
  transfer_id: string;
  transfer_kind: string;
  other_account: string;
  kind: string;
  amount_cents: string | number;
  balance_cents: string | number;
  created_at: string | Date;
}

export const asDate = (value: string | Date): Date =>
  // SQLite hands back TypeORM's UTC text 'YYYY-MM-DD HH:MM:SS.SSS'.
  value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);

export interface HistoryQuery {
  kind?: MoneyHistoryKind;
  /** The id of the last entry of the previous page. */
  before?: string;
  limit?: number;
}

/**
 * One page of `userId`'s history, in one query: the running balance is a window sum over all of
 * the account's entries (oldest first), taken before the kind filter and the page, so each row's
 * balance is the account's, whatever is shown.
 */
export async function historyRows(em: EntityManager, userId: string, query: HistoryQuery, limit: number): Promise<HistoryRow[]> {
  const account = userAccount(userId);
  const qb = em
    .createQueryBuilder()
    .select('h.*')
    .from((sub) => {
      return sub
        .select('e.id', 'id')
        .addSelect('e.transfer_id', 'transfer_id')
        .addSelect('t.kind', 'transfer_kind')
        .addSelect('o.account', 'other_account')
        .addSelect(KIND_SQL, 'kind')
        .addSelect('e.amount_cents', 'amount_cents')
        .addSelect(`SUM(e.amount_cents) OVER (ORDER BY e.created_at ASC, ${TIE_SQL('e')} ASC, e.id ASC)`, 'balance_cents')
        .addSelect(TIE_SQL('e'), 'tie')
        .addSelect('e.created_at', 'created_at')
        .from(LedgerEntryEntity, 'e')
        .innerJoin(LedgerTransferEntity.options.name, 't', 't.id = e.transfer_id')
        .innerJoin(LedgerEntryEntity.options.name, 'o', 'o.transfer_id = e.transfer_id AND o.id <> e.id')
        .where('e.account = :account', { account });
    }, 'h');
  if (query.kind) qb.andWhere('h.kind = :kind', { kind: query.kind });
  if (query.before) {
    // Keyset paging from the previous page's last entry (of this account only: anyone else's id finds nothing).
    const cursor = (column: string) => `(SELECT ${column} FROM ledger_entries c WHERE c.id = :before AND c.account = :account)`;
    const at = cursor('c.created_at');
    const tie = cursor(TIE_SQL('c'));
    qb.andWhere(`(h.created_at < ${at} OR (h.created_at = ${at} AND (h.tie < ${tie} OR (h.tie = ${tie} AND h.id < :before))))`, {
      before: query.before,
      account,
    });
  }
  return qb.orderBy('h.created_at', 'DESC').addOrderBy('h.tie', 'DESC').addOrderBy('h.id', 'DESC').limit(limit).getRawMany<HistoryRow>();
}
