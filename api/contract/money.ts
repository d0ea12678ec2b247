import { MAX_AMOUNT_CENTS_EXCLUSIVE, MIN_AMOUNT_CENTS } from './limits.js';

/**
 * Money, the one way: integer cents inside, dollars on the wire (JSON numbers with at most two
 * decimals), decimal strings in the marketplace's shape ("12.50"). Reading an amount reads its
 * decimal digits — a string as typed, a number through its shortest decimal form, which is what
 * JSON carries — so no amount is ever scaled as a float and every result is a safe integer.
 */

/**
 * The largest amount read: 15 digits ($9,999,999,999,999.99), so that every amount survives the
 * trip through a JSON number (a double holds any 15 significant digits exactly).
 */
export const MAX_CENTS = 999_999_999_999_999;

/** Whole dollars (leading zeros dropped, at most 13 digits), then at most two decimals. */
const TYPED = /^0*(\d{1,13})(?:\.(\d{1,2}))?$/;
/**
 * A number's shortest decimal form: whole dollars, then at most two decimals, or exactly two
 * followed by float noise — six or more 0s, or six or more 9s (rounded up): 0.1 + 0.2 is
 * 0.30000000000000004, 30 cents; 0.7 + 0.1 is 0.7999999999999999, 80 cents.
 */
const NUMBER = /^0*(\d{1,13})(?:\.(\d\d)(?:0{6,}\d*|(9{6,}\d*))|\.(\d{1,2}))?$/;

function toCentsExact(whole: string, fraction = ''): number {
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * Reads a dollar amount — text a person typed (trimmed), or a JSON number — as integer cents:
 * '12.5' → 1250, 7 → 700, 0.1 + 0.2 → 30. Undefined for anything else: more than two decimals
 * (of a string; of a number, beyond float noise), a sign, exponent notation, '.5' or '5.',
 * NaN, infinities, amounts past MAX_CENTS, and every other type.
 */
export function dollarsToCents(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const m = TYPED.exec(value.trim());
    return m ? toCentsExact(m[1], m[2]) : undefined;
  }
  if (typeof value !== 'number') return undefined;
  // String() of a number is its shortest round-trip form; exponents (1e21, 1e-7) do not match.
  const m = NUMBER.exec(String(value));
  if (!m) return undefined;
  const read = toCentsExact(m[1], m[2] ?? m[4]) + (m[3] === undefined ? 0 : 1);
  return read <= MAX_CENTS ? read : undefined;
}

/** Cents as dollars for JSON: 1999 → 19.99 (the double whose shortest form is exactly 19.99). */
export const centsToDollars = (cents: number): number => cents / 100;

/** 1250 → '12.50', -5 → '-0.05': the marketplace's decimal strings (no symbol, no grouping). */
export function centsToDecimal(cents: number): string {
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  const whole = (abs - fraction) / 100;
  return `${cents < 0 ? '-' : ''}${whole}.${String(fraction).padStart(2, '0')}`;
}

/** A whole number's digits in groups of three, as en-US writes them: '1234567' → '1,234,567'. */
export const grouped = (whole: string) => whole.replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * Cents for people: 123456 → '$1,234.56'. `brief` drops the cents of a whole-dollar amount, as
 * people say a give amount ('$5', but '$2.50').
 */
export function formatCents(cents: number, { brief = false }: { brief?: boolean } = {}): string {
  const [whole, fraction] = centsToDecimal(Math.abs(cents)).split('.');
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${grouped(whole)}${brief && fraction === '00' ? '' : `.${fraction}`}`;
}

/** Compact units, largest first: what Intl's compact notation (en-US) calls them. */
const COMPACT_UNITS: [dollars: number, suffix: string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/**
 * Cents in a tight spot (the top bar): under $1,000 as `formatCents` ('$999.99'), from there
 * in Intl's compact notation with at most one decimal, cut rather than rounded so it never
 * shows more than there is: 123456 → '$1.2K', 99999999 → '$999.9K', 100000000 → '$1M'.
 */
export function formatCentsCompact(cents: number): string {
  const abs = Math.abs(cents);
  const dollars = (abs - (abs % 100)) / 100;
  const unit = COMPACT_UNITS.find(([size]) => dollars >= size);
  if (!unit) return formatCents(cents);
  const [size, suffix] = unit;
  // Tenths of the unit, cut: whole integers all the way (dollars * 10 stays a safe integer).
  const tenths = Math.floor((dollars * 10) / size);
  const whole = Math.floor(tenths / 10);
  const tenth = tenths % 10;
  return `${cents < 0 ? '-' : ''}$${grouped(String(whole))}${tenth ? `.${tenth}` : ''}${suffix}`;
}

/**
 * Dollars from the wire for people: 12.5 → '$12.50' (negative amounts too). A value that is not
 * a whole number of cents (never an API answer) shows as '$0.00'.
 */
export function formatDollars(dollars: number, options?: { brief?: boolean }): string {
  const read = dollarsToCents(Math.abs(dollars));
  return formatCents(read === undefined ? 0 : dollars < 0 ? -read : read, options);
}

/** The part of a marketplace product (the catalogue's `SearchProduct`) that says what it costs. */
interface PricedProduct {
  price?: { value?: unknown };
  shippingOptions?: { shippingCost?: { value?: unknown } }[];
}

/**
 * A product's price and first shipping cost in cents (PRODUCT.md §5: an item costs its price
 * plus the first shipping cost); each undefined when the marketplace gives none usable.
 */
export function productCents(product: PricedProduct): { price: number | undefined; shipping: number | undefined } {
  return {
    price: dollarsToCents(product.price?.value),
    shipping: dollarsToCents(product.shippingOptions?.[0]?.shippingCost?.value),
  };
}

/** PRODUCT.md §5: a deposit, withdrawal, give or link amount is at least $1 and under $1,000,000. */
export function isValidAmountCents(cents: number | undefined): cents is number {
  return cents !== undefined && cents >= MIN_AMOUNT_CENTS && cents < MAX_AMOUNT_CENTS_EXCLUSIVE;
}
