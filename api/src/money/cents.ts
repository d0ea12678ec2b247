/**
 * Dollars on the wire, integer cents inside. Conversions are exact: a string is read digit by
 * digit, a number is accepted only when it is a whole number of cents (within float noise, so
 * 0.29 or 0.1 + 0.2 read as 29 and 30 cents, and 1.001 does not).
 */

/** Reads a dollar amount with at most two decimals; undefined when it is not one. */
export function dollarsToCents(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(value.trim());
    if (!match) return undefined;
    const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
    return Number.isSafeInteger(cents) ? cents : undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const scaled = value * 100;
  const cents = Math.round(scaled);
  if (!Number.isSafeInteger(cents) || Math.abs(scaled - cents) > 1e-6) return undefined;
  return cents;
}

/** Cents as dollars for JSON: 1999 → 19.99 (the nearest double, which prints exactly). */
export const centsToDollars = (cents: number): number => cents / 100;
