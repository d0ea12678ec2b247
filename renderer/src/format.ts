import { isGiveAmountCents } from '../../api/contract/link-use';
import { centsToDollars, dollarsToCents, formatDollars, isValidAmountCents } from '../../api/contract/money';
import { relativeTimeText, timeLeftText, type TimeLocale } from '../../api/contract/time';

// ---- money: the contract's one money module, in the dollars the API answers ---------------------

/**
 * The one way an amount prints: `12.5` → `$12.50`, `5` → `$5.00`, always two decimals (as the
 * server's texts do: 'You received a gift of $5.00!').
 */
export { formatDollars };

/**
 * A quick-amount button's label only (PRODUCT.md: 'Give quick amounts: $1, $5, $10'): `5` → `$5`.
 * Everywhere else an amount is stated with `formatDollars`.
 */
export const formatAmount = (amount: number): string => formatDollars(amount, { brief: true });

/** Reads a dollar amount typed by a person (at most two decimals), in dollars; else null. */
export function parseDollars(text: string): number | null {
  const cents = dollarsToCents(text);
  return cents === undefined ? null : centsToDollars(cents);
}

/** PRODUCT.md §5: amounts are at least $1 and under $1,000,000. */
export function isValidAmount(amount: number | null): amount is number {
  return amount !== null && isValidAmountCents(dollarsToCents(amount));
}

/** A give's amount: a valid amount, or under $1 only as exactly what a group gift has `left` (api/contract/link-use.ts). */
export function isGiveAmount(amount: number | null, left: number | null): amount is number {
  return amount !== null && isGiveAmountCents(dollarsToCents(amount), left === null ? null : (dollarsToCents(left) ?? null));
}

// ---- time ---------------------------------------------------------------------------------------

export type AppLocale = TimeLocale;

/** Chinese for browsers set to Chinese, English otherwise. */
export function appLocale(language = typeof navigator === 'undefined' ? 'en' : navigator.language): AppLocale {
  return (language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** `2 hours ago`, `3天前`… from an ISO time; under ten seconds reads `just now` / `刚刚` (api/contract/time.ts). */
export function formatRelativeTime(time: string | Date, now = Date.now(), locale: AppLocale = appLocale()): string {
  const then = typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (!Number.isFinite(then)) return '';
  return relativeTimeText((now - then) / 1000, locale);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `date` in the browser's locale as `options` say (default: 'Nov 27, 2026'). Each formatter is
 * made on first use and kept: making one costs a slow phone tens of milliseconds, so never while a
 * page's module loads (Total Blocking Time).
 */
export function formatDate(date: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, options);
    dateFormats.set(key, format);
  }
  return format.format(typeof date === 'string' ? new Date(date) : date);
}

/** The owner's "Expires in 4 hours" / "Expires in 3 hours 12 minutes" from the link's expiry time (api/contract/time.ts). */
export function formatTimeLeft(expiresAt: string, now = Date.now(), locale: AppLocale = appLocale()): string {
  const ms = Date.parse(expiresAt) - now;
  return timeLeftText(Number.isFinite(ms) ? ms / 1000 : 0, locale);
}
