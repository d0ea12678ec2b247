import { z } from 'zod';
import { dollarsToCents, isValidAmountCents } from './money.js';
import { INVALID_AMOUNT } from './texts.js';

/**
 * An amount in dollars (a number or a numeric string), at least $1, under $1,000,000, with at
 * most two decimals. Parses to integer cents.
 */
export const amountSchema = z.unknown().transform((value, ctx): number => {
  const cents = dollarsToCents(value);
  if (!isValidAmountCents(cents)) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return cents;
});

const userIdSchema = z.string().min(1).max(64).optional();

/** POST /api/billing-settings-deposit: `balance` is the amount to add. */
export const DepositBody = z.object({ userId: userIdSchema, balance: amountSchema });
export type DepositRequest = z.input<typeof DepositBody>;

/** POST /api/billing-settings-withdrawal: `balance` is the amount to take out. */
export const WithdrawalBody = z.object({ userId: userIdSchema, balance: amountSchema });
export type WithdrawalRequest = z.input<typeof WithdrawalBody>;

/** GET /api/billing-settings-balance. */
export interface BalanceResponse {
  /** Dollars. */
  balance: number;
}

export interface NewBalanceResponse {
  /** Dollars, after the deposit or withdrawal. */
  new_balance: number;
}
