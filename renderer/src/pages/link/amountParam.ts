import { centsToDecimal, dollarsToCents, isValidAmountCents } from '../../../../api/contract/money';

/** The query parameter that holds the amount picked on a link page, so that joining or logging in comes back to it. */
export const AMOUNT_PARAM = 'amount';

/**
 * The amount, in dollars, that a `?amount=` value names, when PRODUCT.md allows it (at least $1, under
 * $1,000,000, at most two decimals); else null.
 */
export function parseAmountParam(value: string | null): number | null {
  const cents = dollarsToCents(value);
  return isValidAmountCents(cents) ? cents / 100 : null;
}

/** An amount as `?amount=` holds it: whole dollars bare (`5`), else with its cents (`7.25`, `7.50`). */
export function formatAmountParam(amount: number): string {
  const decimal = centsToDecimal(dollarsToCents(amount) ?? 0);
  return decimal.endsWith('.00') ? decimal.slice(0, -3) : decimal;
}
