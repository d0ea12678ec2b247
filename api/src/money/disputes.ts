/**
 * A disputed card payment taken back through the ledger, once per dispute: from the payment's own
 * money wherever it still is on hold (the held lots whose origin is the payment: the payer's, then
 * what it became in others' balances, following the gifts it paid for), and what that does not
 * cover is booked to `system:losses` and owed by the payer, whose balance pays it back at once
 * (down to zero) and whose next deposits pay the rest; until then they cannot give, buy or
 * withdraw. A dispute won gives back every movement it made. Why these rules:
 * docs/decisions/0017-holds-and-disputes.md.
 */
import type { EntityManager } from 'typeorm';
import { balanceChangedOnCommit } from '../db/observer.js';
import { holdNow } from './holds.js';
import { accountsHoldingOrigin } from './holds-store.js';
import {
  addRepaid,
  depositByReference,
  disputeTransfers,
  findDispute,
  insertDispute,
  owingDisputes,
  setDisputeStatus,
  setUnrecovered,
} from './disputes-store.js';
import { SYSTEM_LOSSES, SYSTEM_PAYMENTS, SYSTEM_UNCLAIMED, balanceOf, transfer, userAccount, type AccountKey } from './ledger.js';
import { UserEntity } from '../users/entity.js';

export interface DisputeInput {
  /** The provider's dispute id: the dispute is taken back once, whatever events name it. */
  disputeId: string;
  /** The card payment's provider reference (Stripe's PaymentIntent or charge id). */
  reference: string;
  amountCents: number;
}

export interface TakenBack {
  payerId: string;
  fromPayerCents: number;
  /** What was taken from each person the money reached while on hold, and the transfers that brought it to them. */
  fromHeld: { userId: string; cents: number; sourceTransferIds: string[] }[];
  lostCents: number;
}

/** Takes a disputed card payment back (see the file's comment); null for a payment we do not know or a dispute already taken. */
export async function takeBackDispute(em: EntityManager, input: DisputeInput): Promise<TakenBack | null> {
  const deposit = await depositByReference(em, input.reference);
  if (!deposit?.account.startsWith('user:') || (await findDispute(em, input.disputeId))) return null;
  const now = holdNow(em);
  const payerId = deposit.account.slice('user:'.length);
  const amountCents = Math.min(input.amountCents, deposit.amountCents);
  await insertDispute(em, {
    id: input.disputeId,
    depositTransferId: deposit.transferId,
    userId: payerId,
    amountCents,
    status: 'open',
    unrecoveredCents: 0,
    repaidCents: 0,
    createdAt: now,
    updatedAt: now,
  });
  const takeBack = (from: AccountKey, cents: number, only?: { origin: string }) =>
    transfer(em, { from, to: SYSTEM_PAYMENTS, amountCents: cents, kind: 'dispute', reference: input.disputeId, only });

  // The payment's own money first, wherever it is still on hold: the payer's, then what it became in
  // others' balances. Never the payer's other money before a recipient's: how much a recipient loses
  // would then tell them how much else their anonymous giver had.
  const holders = (await accountsHoldingOrigin(em, deposit.transferId, now)).sort(
    (a, b) => Number(b.account === deposit.account) - Number(a.account === deposit.account),
  );
  let fromPayerCents = 0;
  const fromHeld: TakenBack['fromHeld'] = [];
  for (const holder of holders) {
    const left = amountCents - fromPayerCents - fromHeld.reduce((sum, h) => sum + h.cents, 0);
    // Escrow stays with its link: a give link's uses are owed what it holds.
    if (left === 0 || !holder.account.startsWith('user:')) continue;
    const cents = Math.min(left, holder.heldCents, await balanceOf(em, holder.account as AccountKey));
    if (cents <= 0) continue;
    await takeBack(holder.account as AccountKey, cents, { origin: deposit.transferId });
    if (holder.account === deposit.account) fromPayerCents = cents;
    else fromHeld.push({ userId: holder.account.slice('user:'.length), cents, sourceTransferIds: holder.sourceTransferIds });
  }
  const lostCents = amountCents - fromPayerCents - fromHeld.reduce((sum, h) => sum + h.cents, 0);
  if (lostCents > 0) {
    await takeBack(SYSTEM_LOSSES, lostCents);
    await setUnrecovered(em, input.disputeId, lostCents, now);
    // What the payer owes changed, whether or not their balance moves.
    balanceChangedOnCommit(payerId);
    // The rest of the payer's balance pays it back at once, down to zero; what remains is owed.
    await repayOwed(em, payerId, await balanceOf(em, deposit.account as AccountKey));
  }
  return { payerId, fromPayerCents, fromHeld, lostCents };
}

/** A dispute won: every movement it made goes back where it came from; what the payer owed is owed no more. */
export async function disputeWon(em: EntityManager, disputeId: string): Promise<boolean> {
  const dispute = await findDispute(em, disputeId);
  if (!dispute || dispute.status === 'won' || !(await setDisputeStatus(em, disputeId, dispute.status, 'won', holdNow(em)))) return false;
  // The payer owes nothing more, whether or not their balance moves.
  balanceChangedOnCommit(dispute.userId);
  for (const moved of await disputeTransfers(em, disputeId))
    await transfer(em, {
      from: moved.to as AccountKey,
      to: await openOrUnclaimed(em, moved.from as AccountKey),
      amountCents: moved.cents,
      kind: 'dispute',
      reference: `${disputeId}:won`,
    });
  return true;
}

/** A person's account, or `system:unclaimed` once they have closed it (kept for them, as any refund after closing is). */
async function openOrUnclaimed(em: EntityManager, key: AccountKey): Promise<AccountKey> {
  if (!key.startsWith('user:')) return key;
  const user = await em.findOne(UserEntity, { where: { id: key.slice('user:'.length) }, select: { id: true, closedAt: true } });
  return user && !user.closedAt ? key : SYSTEM_UNCLAIMED;
}

/** A dispute lost: what was taken stays taken (and what is owed, owed). */
export async function disputeLost(em: EntityManager, disputeId: string): Promise<boolean> {
  return setDisputeStatus(em, disputeId, 'open', 'lost', holdNow(em));
}

/** After money came into a payer's balance (now `balanceCents`): what they owe from disputes is paid back from it first, oldest first; answers the balance after. */
export async function repayOwed(em: EntityManager, userId: string, balanceCents: number): Promise<number> {
  let balance = balanceCents;
  for (const dispute of await owingDisputes(em, userId)) {
    const cents = Math.min(dispute.owedCents, balance);
    if (cents <= 0) break;
    const moved = await transfer(em, {
      from: userAccount(userId),
      to: SYSTEM_LOSSES,
      amountCents: cents,
      kind: 'dispute',
      reference: dispute.id,
    });
    await addRepaid(em, dispute.id, cents, holdNow(em));
    balance = moved.fromBalanceCents;
  }
  return balance;
}
