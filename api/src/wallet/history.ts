/**
 * The money history: every ledger entry of one user's account, newest first, with the
 * running balance after each, read straight from the ledger so it always adds up to the balance.
 *
 * What a row may say about the other side is decided here, from the transfer's kind and direction
 * alone, and only ever adds a name; it never derives one for money that came in, except a give
 * link's maker for a `release` (accepting someone's give link is a named gift, README): a gift to
 * a receive link (`give` in) and everything else that came in name no one, and no row carries an
 * id of the other side's (not the transfer's, not the other entry's).
 */
import { In, type EntityManager } from 'typeorm';
import { findPayoutAccount } from '../payouts/store.js';
import { PaymentIntentEntity, type PaymentIntentStatus } from './entity.js';
import { ANONYMOUS_GIVER, MONEY_HISTORY_KINDS } from '../../contract/texts.js';
import { LinkEntity, LinkResponseEntity } from '../links/entity.js';
import { centsToDecimal, centsToDollars } from '../../contract/money.js';
import { UserEntity } from '../users/entity.js';
import { WishlistItemEntity } from '../wishlists/entity.js';
import { asDate, historyRows, type HistoryQuery, type HistoryRow } from './history-store.js';
import type { MoneyHistoryEntry, MoneyHistoryKind, MoneyHistoryPage, MoneyHistoryParty } from '../../contract/wallet.js';

export const DEFAULT_HISTORY_PAGE = 30;

const isKind = (kind: string): kind is MoneyHistoryKind => Object.hasOwn(MONEY_HISTORY_KINDS, kind);

const party = (u: { username: string; displayName: string } | undefined): MoneyHistoryParty | null =>
  u ? { username: u.username, displayName: u.displayName || u.username } : null;

/**
 * The other side the user may know, per row: whom they gave to (`give` out: the other account is
 * the recipient; `purchase`: the wishlist's owner or the receive link's maker), and who made the
 * give link they accepted (`release` in). Nothing for any other row.
 */
async function partiesOf(em: EntityManager, rows: HistoryRow[]): Promise<Map<string, MoneyHistoryParty>> {
  const userOf = new Map<string, string>(); // entry id → user id
  const linkOf = new Map<string, string>(); // entry id → link id (its maker is the party)
  const purchases = new Map<string, string>(); // transfer id → entry id
  for (const row of rows) {
    const out = Number(row.amount_cents) < 0;
    if (row.transfer_kind === 'give' && out && row.other_account.startsWith('user:')) userOf.set(row.id, row.other_account.slice(5));
    else if (row.transfer_kind === 'release' && !out && row.other_account.startsWith('escrow:'))
      linkOf.set(row.id, row.other_account.slice(7));
    else if (row.transfer_kind === 'purchase' && out) purchases.set(row.transfer_id, row.id);
  }
  if (purchases.size) {
    const transferIds = [...purchases.keys()];
    const items = await em
      .createQueryBuilder(WishlistItemEntity, 'w')
      .select(['w.ownerId', 'w.transferId'])
      .where('w.transferId IN (:...transferIds)', { transferIds })
      .getMany();
    for (const item of items) if (item.transferId) userOf.set(purchases.get(item.transferId)!, item.ownerId);
    const uses = await em
      .createQueryBuilder(LinkResponseEntity, 'r')
      .select(['r.linkId', 'r.transferId'])
      .where('r.transferId IN (:...transferIds)', { transferIds })
      .getMany();
    for (const use of uses) linkOf.set(purchases.get(use.transferId)!, use.linkId);
  }
  if (linkOf.size) {
    const links = await em
      .createQueryBuilder(LinkEntity, 'l')
      .select(['l.id', 'l.creatorId'])
      .where('l.id IN (:...ids)', { ids: [...new Set(linkOf.values())] })
      .getMany();
    const creatorOf = new Map(links.map((l) => [l.id, l.creatorId]));
    for (const [entryId, linkId] of linkOf) {
      const creator = creatorOf.get(linkId);
      if (creator) userOf.set(entryId, creator);
    }
  }
  const parties = new Map<string, MoneyHistoryParty>();
  if (!userOf.size) return parties;
  const users = await em
    .createQueryBuilder(UserEntity, 'u')
    .select(['u.id', 'u.username', 'u.displayName'])
    .where('u.id IN (:...ids)', { ids: [...new Set(userOf.values())] })
    .getMany();
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const [entryId, id] of userOf) {
    const p = party(byId.get(id));
    if (p) parties.set(entryId, p);
  }
  return parties;
}

type Payout = NonNullable<MoneyHistoryEntry['payout']>;
/** A withdrawal's intent only ever is pending, succeeded or failed; the card-only states read as pending. */
const payoutState = (status: PaymentIntentStatus): Payout['status'] =>
  status === 'succeeded' ? 'paid' : status === 'failed' ? 'failed' : 'pending';

/** Each withdrawal row's transfer state (its intent has the hold's id) and the bank on file. */
async function payoutsOf(em: EntityManager, userId: string, rows: HistoryRow[]): Promise<Map<string, Payout>> {
  const holds = rows.filter((r) => r.transfer_kind === 'withdrawal' && Number(r.amount_cents) < 0).map((r) => r.transfer_id);
  const out = new Map<string, Payout>();
  if (!holds.length) return out;
  const [intents, account] = await Promise.all([
    em.find(PaymentIntentEntity, { where: { id: In(holds) }, select: { id: true, status: true } }),
    findPayoutAccount(em, userId),
  ]);
  for (const intent of intents) out.set(intent.id, { bankLast4: account?.bankLast4 ?? null, status: payoutState(intent.status) });
  return out;
}

function present(row: HistoryRow, parties: Map<string, MoneyHistoryParty>, payouts: Map<string, Payout>): MoneyHistoryEntry {
  const kind = isKind(row.kind) ? row.kind : 'other';
  const payout = Number(row.amount_cents) < 0 ? payouts.get(row.transfer_id) : undefined;
  return {
    id: row.id,
    createdAt: asDate(row.created_at).toISOString(),
    kind,
    amount: centsToDollars(Number(row.amount_cents)),
    balance: centsToDollars(Number(row.balance_cents)),
    party: parties.get(row.id) ?? null,
    // Money in from a gift names its giver only when it was a give link they made.
    anonymous: kind === 'gift_received' && !parties.has(row.id),
    ...(payout ? { payout } : {}),
  };
}

/** One page of the user's money history, newest first. */
export async function moneyHistory(em: EntityManager, userId: string, query: HistoryQuery = {}): Promise<MoneyHistoryPage> {
  const limit = query.limit ?? DEFAULT_HISTORY_PAGE;
  const rows = await historyRows(em, userId, query, limit + 1);
  const page = rows.slice(0, limit);
  const [parties, payouts] = await Promise.all([partiesOf(em, page), payoutsOf(em, userId, page)]);
  return {
    entries: page.map((row) => present(row, parties, payouts)),
    nextCursor: rows.length > limit ? page[page.length - 1].id : null,
  };
}

// ---- CSV ----------------------------------------------------------------------------------------

export const CSV_HEADER = ['Date', 'Kind', 'Amount', 'Balance', 'From or to'];

/** A text cell: quoted, and a leading formula character defused (spreadsheets run '=…'). */
function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** A money cell: a plain signed decimal ('-5.00'), which spreadsheets read as a number. */
const moneyCell = (dollars: number) => centsToDecimal(Math.round(dollars * 100));

/** The CSV row of an entry: the same fields as the JSON, the anonymous giver as 'Anonymous'. */
export function csvRow(entry: MoneyHistoryEntry): string {
  const who = entry.party ? `${entry.party.displayName} (@${entry.party.username})` : entry.anonymous ? ANONYMOUS_GIVER : '';
  return [
    textCell(entry.createdAt),
    textCell(MONEY_HISTORY_KINDS[entry.kind]),
    moneyCell(entry.amount),
    moneyCell(entry.balance),
    textCell(who),
  ].join(',');
}

/** The whole history (with the same filter) as CSV, read page by page. */
export async function moneyHistoryCsv(em: EntityManager, userId: string, kind?: MoneyHistoryKind): Promise<string> {
  const lines = [CSV_HEADER.join(',')];
  let before: string | undefined;
  do {
    const page = await moneyHistory(em, userId, { kind, before, limit: 500 });
    for (const entry of page.entries) lines.push(csvRow(entry));
    before = page.nextCursor ?? undefined;
  } while (before);
  return `${lines.join('\r\n')}\r\n`;
}
