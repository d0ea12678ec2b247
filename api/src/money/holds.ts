/**
 * Money on hold: every credit of card money or of a gift carries when it becomes available, and
 * only available money may leave Giftlink. The ledger calls `moveLots` inside every transfer, so
 * no caller can forget it.
 *
 * A lot is a part of an account's balance (`user:` or `escrow:`) that cannot leave before its
 * `availableAt`; its `originTransferId` names the card payment it came from, so a dispute can
 * follow that money into what it paid for. Available = balance − what the held lots still hold.
 *
 * - A card payment's credit (`system:payments → user`) is one lot until now + the hold, marked with
 *   the identity that paid: by name (a deposit), or anonymously (a card authorised for a gift).
 * - Spending takes the spender's held lots first, those of the identity spending first; each piece
 *   keeps its origin only while it moves as the identity that paid it (else a dispute of a named
 *   payment would reach an anonymous gift and tell who gave it), and the new owner's lot is
 *   available no earlier than the piece was (never laundered into available money).
 * - A gift received (user or escrow → user, not a refund) waits now + the hold, whatever paid it.
 * - Money parked in escrow, or coming back to whoever it came from (a refund, a gift returned), keeps
 *   the release it had.
 * - Money from another system account (an order refund) waits now + the hold: its lineage is gone.
 * - Money leaving (`system:payouts-pending`) must be available: else `funds_on_hold`.
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { appendedRowId } from '../db/ids.js';
import { AppError, badRequest } from '../errors.js';
import { formatCents } from '../../contract/money.js';
import { fundsOnHold, releaseTime } from '../../contract/texts.js';
import { databaseOf, heldLots, heldSummaryIn, insertLot, takeFromLot, type LotFilter, type PayerIdentity } from './holds-store.js';

export type { PayerIdentity };

export interface HoldPolicy {
  /** How long card money and gifts received wait; 0: no hold. */
  holdMs: number;
  /** The time now (the server's clock, which tests move). */
  clock: () => Date;
}

const NO_HOLD: HoldPolicy = { holdMs: 0, clock: () => new Date() };
const policies = new WeakMap<object, HoldPolicy>();

/** Sets the hold of every transfer made on `db` (server start-up). */
export function setHoldPolicy(db: Database, policy: HoldPolicy): void {
  policies.set(db.source, policy);
}

const policyOf = (connection: object): HoldPolicy => policies.get(connection) ?? NO_HOLD;

/** The time now for `db`'s holds. */
export const holdClock = (db: Database): Date => policyOf(db.source).clock();
/** The time now for the holds of the database `em` runs on. */
export const holdNow = (em: EntityManager): Date => policyOf(databaseOf(em)).clock();

/** A part of the money moved, with where it came from and when it may leave. */
interface Piece {
  originTransferId: string | null;
  payerIdentity: PayerIdentity | null;
  cents: number;
  availableAt: Date;
}

export interface LotSide {
  key: string;
  kind: 'user' | 'escrow' | 'system';
}

export interface LotMove {
  transferId: string;
  kind: string;
  from: LotSide;
  to: LotSide;
  amountCents: number;
  /** The debited account's balance after the transfer. */
  fromBalanceCents: number;
  /** Which held money to take (a dispute's card payment, a returned gift's transfer); else the spender's held lots in order. */
  only?: LotFilter;
  /** As whom the money moves: an anonymous gift, or a card payment made for one; else by name. */
  identity: PayerIdentity;
  /** Where money must be available to go. */
  leaving: boolean;
}

/** The refusal of a withdrawal above what is available. */
export const notYetAvailable = (availableCents: number, nextReleaseAt: Date): AppError =>
  badRequest(fundsOnHold(formatCents(availableCents), releaseTime(nextReleaseAt)), 'funds_on_hold');

/** The hold's bookkeeping of one transfer, after both balances moved, in its transaction. */
export async function moveLots(em: EntityManager, move: LotMove): Promise<void> {
  const { holdMs, clock } = policyOf(databaseOf(em));
  const now = clock();
  if (move.leaving && move.from.kind !== 'system') {
    const held = await heldSummaryIn(em, move.from.key, now);
    if (held.heldCents > move.fromBalanceCents)
      throw notYetAvailable(move.fromBalanceCents + move.amountCents - held.heldCents, held.nextReleaseAt!);
    return;
  }
  const pieces = move.from.kind === 'system' ? [] : await takeHeld(em, move, now);
  const credited = creditedPieces(move, pieces, now, holdMs);
  if (move.to.kind === 'system') return;
  for (const piece of merge(credited))
    await insertLot(em, {
      id: appendedRowId(),
      account: move.to.key,
      originTransferId: piece.originTransferId,
      payerIdentity: piece.payerIdentity,
      sourceTransferId: move.transferId,
      amountCents: piece.cents,
      availableAt: piece.availableAt,
      createdAt: now,
    });
}

/**
 * Takes the move's amount from the spender's held lots, first to leave first, those the spending
 * identity paid first (so what one identity spends never depends on what the other holds); answers
 * what was taken.
 */
async function takeHeld(em: EntityManager, move: LotMove, now: Date): Promise<Piece[]> {
  const taken: Piece[] = [];
  let left = move.amountCents;
  const lots = await heldLots(em, move.from.key, now, move.only);
  const own = (lot: { payerIdentity: PayerIdentity | null }) => (lot.payerIdentity === move.identity ? 0 : 1);
  for (const lot of lots.sort((a, b) => own(a) - own(b))) {
    if (left === 0) break;
    const take = Math.min(left, lot.remainingCents);
    if (!(await takeFromLot(em, lot.id, take))) throw new Error(`holds: lot ${lot.id} changed under its account's lock`);
    taken.push({ originTransferId: lot.originTransferId, payerIdentity: lot.payerIdentity, cents: take, availableAt: lot.availableAt });
    left -= take;
  }
  // The named money was partly spent since the caller read it: the rest comes from the account's other
  // held money, else those lots would stay held above the balance.
  if (move.only && left > 0) return [...taken, ...(await takeHeld(em, { ...move, only: undefined, amountCents: left }, now))];
  return taken;
}

/** The pieces the credited account holds after the transfer. */
function creditedPieces(move: LotMove, taken: Piece[], now: Date, holdMs: number): Piece[] {
  const until = new Date(now.getTime() + holdMs);
  const rest = move.amountCents - taken.reduce((sum, p) => sum + p.cents, 0);
  if (move.from.kind === 'system') {
    // Card money is its own origin; other system money (an order refund) has lost its lineage.
    const card = move.from.key === 'system:payments';
    return holdMs > 0 && move.from.key !== 'system:payouts-pending'
      ? [
          {
            originTransferId: card ? move.transferId : null,
            payerIdentity: card ? move.identity : null,
            cents: move.amountCents,
            availableAt: until,
          },
        ]
      : [];
  }
  // Back to whoever it came from: the money keeps the origin and release it had.
  if (move.kind === 'refund' || move.kind === 'return') return taken;
  // Moved by another identity than the one that paid it: a dispute no longer follows it.
  const followed = taken.map((p) => (p.payerIdentity === move.identity ? p : { ...p, originTransferId: null, payerIdentity: null }));
  // Into escrow the money keeps its release; a gift received waits the hold.
  if (move.to.kind === 'escrow') return followed;
  const later = (at: Date) => (at > until ? at : until);
  const gift = followed.map((p) => ({ ...p, availableAt: later(p.availableAt) }));
  return holdMs > 0 && rest > 0 ? [...gift, { originTransferId: null, payerIdentity: null, cents: rest, availableAt: until }] : gift;
}

/** One lot per origin and release. */
function merge(pieces: Piece[]): Piece[] {
  const byKey = new Map<string, Piece>();
  for (const p of pieces) {
    const key = `${p.originTransferId ?? ''}|${p.payerIdentity ?? ''}|${p.availableAt.getTime()}`;
    const seen = byKey.get(key);
    if (seen) seen.cents += p.cents;
    else byKey.set(key, { ...p });
  }
  return [...byKey.values()].filter((p) => p.cents > 0);
}

/** What an account holds on hold now, inside a transaction. */
export async function heldNowIn(em: EntityManager, account: string): Promise<number> {
  return (await heldSummaryIn(em, account, holdNow(em))).heldCents;
}
