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

export type TransferKind = 'deposit' | 'withdrawal' | 'escrow' | 'release' | 'refund' | 'give' | 'purchase' | 'subscription';

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

/** The first answer to a request carrying an Idempotency-Key, replayed to its repeats. */
export interface IdempotencyRecord {
  id: string;
  userId: string;
  key: string;
  /** What the key was used for (e.g. `wallet.deposit`): the same key elsewhere is refused. */
  scope: string;
  /** A hash of the request's input: the same key with another input is refused. */
  requestHash: string;
  status: number;
  response: string | null;
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

export const IdempotencyRecordEntity = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_keys',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    key: { type: 'varchar', length: 255 },
    scope: { type: 'varchar', length: 64 },
    requestHash: { type: 'varchar', length: 64, name: 'request_hash' },
    status: { type: 'integer' },
    response: { type: 'text', nullable: true },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  uniques: [{ name: 'uq_idempotency_user_key', columns: ['userId', 'key'] }],
});

/** A part of an account's balance that cannot leave Giftlink before `availableAt` (money/holds.ts). */
export interface HeldLot {
  id: string;
  /** `user:<id>` or `escrow:<linkId>`. */
  account: string;
  /** The card payment's transfer this money came from; null for a gift paid with money already available. */
  originTransferId: string | null;
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
