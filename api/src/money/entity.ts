import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';

/** The cached balance of an account that is not a user's (escrow and system accounts). */
export interface LedgerAccount {
  /** `escrow:<linkId>` or `system:<name>` (see ledger.ts). */
  key: string;
  kind: 'escrow' | 'system';
  balanceCents: number;
  createdAt: Date;
}

export type TransferKind =
  | 'deposit'
  | 'withdrawal'
  | 'escrow'
  | 'release'
  | 'refund'
  | 'give'
  | 'purchase'
  | 'subscription'
  /** A disputed card payment taken back, booked to losses, repaid, or given back when the dispute is won. */
  | 'dispute'
  /** A gift its recipient sent back. */
  | 'return';

/** One movement of money: exactly two entries, summing to zero. */
export interface LedgerTransfer {
  id: string;
  kind: TransferKind;
  /** The user whose request moved the money; null for the system (expiry sweeps). */
  actorUserId: string | null;
  /** The payment provider's reference for deposits and withdrawals. */
  reference: string | null;
  createdAt: Date;
}

export interface LedgerEntry {
  id: string;
  transferId: string;
  /** An account key: `user:<id>`, `escrow:<linkId>` or `system:<name>`. */
  account: string;
  /** Signed: negative leaves the account, positive enters it. */
  amountCents: number;
  createdAt: Date;
}

export const LedgerAccountEntity = new EntitySchema<LedgerAccount>({
  name: 'LedgerAccount',
  tableName: 'ledger_accounts',
  columns: {
    key: { type: 'varchar', length: 80, primary: true },
    kind: { type: 'varchar', length: 16 },
    balanceCents: centsColumn({ name: 'balance_cents' }),
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});

export const LedgerTransferEntity = new EntitySchema<LedgerTransfer>({
  name: 'LedgerTransfer',
  tableName: 'ledger_transfers',
  columns: {
    id: idColumn,
    kind: { type: 'varchar', length: 24 },
    actorUserId: { ...refColumn(true), name: 'actor_user_id' },
    reference: { type: 'varchar', length: 255, nullable: true },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  indices: [{ name: 'idx_ledger_transfers_reference', columns: ['reference'] }],
});

export const LedgerEntryEntity = new EntitySchema<LedgerEntry>({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  columns: {
    id: idColumn,
    transferId: { ...refColumn(), name: 'transfer_id' },
    account: { type: 'varchar', length: 80 },
    amountCents: centsColumn({ name: 'amount_cents', default: undefined }),
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  indices: [
    { name: 'idx_ledger_entries_account', columns: ['account'] },
    { name: 'idx_ledger_entries_transfer', columns: ['transferId'] },
  ],
});

/** A part of an account's balance that cannot leave Giftlink before `availableAt` (money/holds.ts). */
export interface HeldLot {
  id: string;
  /** `user:<id>` or `escrow:<linkId>`. */
  account: string;
  /** The card payment's transfer this money came from; null for a gift paid with money already available. */
  originTransferId: string | null;
  /** As whom that card payment was made; a dispute follows it only into what the same identity did. */
  payerIdentity: 'named' | 'anonymous' | null;
  /** The transfer that made this lot. */
  sourceTransferId: string;
  amountCents: number;
  /** What is still here of it: spending and disputes take from it. */
  remainingCents: number;
  availableAt: Date;
  createdAt: Date;
}

export const HeldLotEntity = new EntitySchema<HeldLot>({
  name: 'HeldLot',
  tableName: 'held_lots',
  columns: {
    id: idColumn,
    account: { type: 'varchar', length: 80 },
    originTransferId: { ...refColumn(true), name: 'origin_transfer_id' },
    payerIdentity: { type: 'varchar', length: 9, nullable: true, name: 'payer_identity' },
    sourceTransferId: { ...refColumn(), name: 'source_transfer_id' },
    amountCents: centsColumn({ name: 'amount_cents', default: undefined }),
    remainingCents: centsColumn({ name: 'remaining_cents', default: undefined }),
    availableAt: { ...dateColumn(), name: 'available_at' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  indices: [
    { name: 'idx_held_lots_account', columns: ['account', 'availableAt'] },
    { name: 'idx_held_lots_origin', columns: ['originTransferId'] },
  ],
});

export type DisputeStatus = 'open' | 'won' | 'lost';

/** A provider's dispute of a card payment, taken back once (money/disputes.ts). */
export interface Dispute {
  /** The provider's dispute id. */
  id: string;
  depositTransferId: string;
  /** Who made the card payment. */
  userId: string;
  amountCents: number;
  status: DisputeStatus;
  /** What neither the payer's balance nor the money still on hold covered: booked to `system:losses`, owed by the payer. */
  unrecoveredCents: number;
  /** What the payer has paid back of it since. */
  repaidCents: number;
  createdAt: Date;
  updatedAt: Date;
}

export const DisputeEntity = new EntitySchema<Dispute>({
  name: 'Dispute',
  tableName: 'disputes',
  columns: {
    id: { type: 'varchar', length: 255, primary: true },
    depositTransferId: { ...refColumn(), name: 'deposit_transfer_id' },
    userId: { ...refColumn(), name: 'user_id' },
    amountCents: centsColumn({ name: 'amount_cents', default: undefined }),
    status: { type: 'varchar', length: 16 },
    unrecoveredCents: centsColumn({ name: 'unrecovered_cents' }),
    repaidCents: centsColumn({ name: 'repaid_cents' }),
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
  indices: [{ name: 'idx_disputes_user', columns: ['userId'] }],
});

/** A money gift to a person, with its message and thread: what a return or a reversal acts on. */
export interface GiftReceipt {
  transferId: string;
  messageId: string;
  conversationId: string;
  giverId: string;
  recipientId: string;
  amountCents: number;
  /** null while it stands; `returned` by its recipient, `reversed` by a dispute. */
  outcome: 'returned' | 'reversed' | null;
  createdAt: Date;
}

export const GiftReceiptEntity = new EntitySchema<GiftReceipt>({
  name: 'GiftReceipt',
  tableName: 'gift_receipts',
  columns: {
    transferId: { ...idColumn, name: 'transfer_id' },
    messageId: { ...refColumn(), name: 'message_id', unique: true },
    conversationId: { ...refColumn(), name: 'conversation_id' },
    giverId: { ...refColumn(), name: 'giver_id' },
    recipientId: { ...refColumn(), name: 'recipient_id' },
    amountCents: centsColumn({ name: 'amount_cents', default: undefined }),
    outcome: { type: 'varchar', length: 16, nullable: true },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
