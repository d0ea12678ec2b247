import { z } from 'zod';
import { dollarsToCents } from '../money/cents.js';

export const INVALID_AMOUNT = 'Please enter a valid amount above $1';
export const MIN_AMOUNT_CENTS = 100;
/** Amounts must be under $1,000,000. */
export const MAX_AMOUNT_CENTS_EXCLUSIVE = 100_000_000;

/**
 * A deposit or withdrawal amount in dollars (a number or a numeric string), at least $1, under
 * $1,000,000, with at most two decimals. Parses to integer cents.
 */
export const amountSchema = z.unknown().transform((value, ctx): number => {
  const cents = dollarsToCents(value);
  if (cents === undefined || cents < MIN_AMOUNT_CENTS || cents >= MAX_AMOUNT_CENTS_EXCLUSIVE) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return cents;
});

const userIdSchema = z.string().min(1).max(64).optional();

export const DepositBody = z.object({ userId: userIdSchema, balance: amountSchema });
export type DepositRequest = z.input<typeof DepositBody>;

export const WithdrawalBody = z.object({ userId: userIdSchema, balance: amountSchema });
export type WithdrawalRequest = z.input<typeof WithdrawalBody>;

export interface BalanceResponse {
  /** Dollars. */
  balance: number;
}

export interface NewBalanceResponse {
  /** Dollars, after the deposit or withdrawal. */
  new_balance: number;
}
