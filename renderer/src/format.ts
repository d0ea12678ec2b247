import { centsToDollars, dollarsToCents, formatCentsCompact, formatDollars, isValidAmountCents } from '../../api/contract/money';

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

export type AppLocale = 'en' | 'zh';

/** Chinese for browsers set to Chinese, English otherwise. */
export function appLocale(language = typeof navigator === 'undefined' ? 'en' : navigator.language): AppLocale {
  return (language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

const JUST_NOW: Record<AppLocale, string> = { en: 'just now', zh: '刚刚' };

const UNITS: [limitSeconds: number, unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  [60, 'second', 1],
  [3600, 'minute', 60],
  [86_400, 'hour', 3600],
  [604_800, 'day', 86_400],
  [2_629_800, 'week', 604_800],
  [31_557_600, 'month', 2_629_800],
  [Number.POSITIVE_INFINITY, 'year', 31_557_600],
];

const relativeFormats = new Map<AppLocale, Intl.RelativeTimeFormat>();

/** `2 hours ago`, `3 天前`… from an ISO time; under ten seconds reads `just now` / `刚刚`. */
export function formatRelativeTime(time: string | Date, now = Date.now(), locale: AppLocale = appLocale()): string {
  const then = typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (!Number.isFinite(then)) return '';
  const elapsed = Math.max(0, (now - then) / 1000);
  if (elapsed < 10) return JUST_NOW[locale];
  let rtf = relativeFormats.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
    relativeFormats.set(locale, rtf);
  }
  const [, unit, size] = UNITS.find(([limit]) => elapsed < limit) ?? UNITS[UNITS.length - 1];
  return rtf.format(-Math.floor(elapsed / size), unit);
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
