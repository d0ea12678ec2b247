import { centsToDollars, dollarsToCents, formatCentsCompact, formatDollars, isValidAmountCents } from '../../api/contract/money';
import { relativeTimeText, type TimeLocale } from '../../api/contract/time';

// ---- money: the contract's one money module, in the dollars the API answers ---------------------

/**
 * The one way an amount prints: `12.5` → `$12.50`, `5` → `$5.00`, always two decimals (as the
 * server's texts do: 'You received a gift of $5.00!').
 */
export { formatDollars };

/**
 * A quick-amount button's label only (SPEC: 'Give quick amounts: $1, $5, $10'): `5` → `$5`.
 * Everywhere else an amount is stated with `formatDollars`.
 */
export const formatAmount = (amount: number): string => formatDollars(amount, { brief: true });

/**
 * An amount in a tight spot (the top bar's balance): `formatDollars` under $1,000, then compact
 * and cut, never rounded up: `1234.56` → `$1.2K`, `999999.99` → `$999.9K`. Say the full amount
 * beside it (title, aria-label).
 */
export function formatDollarsCompact(dollars: number): string {
  const cents = dollarsToCents(Math.abs(dollars)) ?? 0;
  return formatCentsCompact(dollars < 0 ? -cents : cents);
}

/** Reads a dollar amount typed by a person (at most two decimals), in dollars; else null. */
export function parseDollars(text: string): number | null {
  const cents = dollarsToCents(text);
  return cents === undefined ? null : centsToDollars(cents);
}

/** SPEC section 5: amounts are at least $1 and under $1,000,000. */
export function isValidAmount(amount: number | null): amount is number {
  return amount !== null && isValidAmountCents(dollarsToCents(amount));
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

/** The owner's "Expires in 4 hours" from the link's expiry time. */
export function formatTimeLeft(expiresAt: string, now = Date.now()): string {
  const ms = Date.parse(expiresAt) - now;
  if (!Number.isFinite(ms) || ms <= 0) return 'Expired';
  if (ms >= 3_600_000) {
    const hours = Math.round(ms / 3_600_000);
    return `Expires in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  }
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Expires in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}
