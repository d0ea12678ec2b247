import { expect } from 'vitest';
import type { Database } from '../db/index.js';
import { ledgerInvariants } from '../money/ledger.js';
import { holdClock } from '../money/holds.js';

/**
 * The ledger's invariants (docs/decisions/0019-the-ledger.md), asserted: all entries sum to zero,
 * every cached balance equals its entries, no user or escrow balance is below zero, and every
 * transfer balances, and no closed account was credited; no held lot is out of range and no account
 * holds more on hold than its balance (at the server's clock).
 */
export async function expectLedgerSound(db: Database): Promise<void> {
  const inv = await ledgerInvariants(db, holdClock(db));
  expect(inv.sumOfAllEntries).toBe(0);
  expect(inv.mismatchedBalances).toEqual([]);
  expect(inv.negativeUserBalances).toEqual([]);
  expect(inv.negativeEscrowBalances).toEqual([]);
  expect(inv.unbalancedTransfers).toEqual([]);
  expect(inv.creditsToClosedAccounts).toEqual([]);
  expect(inv.lotsOutOfRange).toEqual([]);
  expect(inv.heldAboveBalance).toEqual([]);
}
