import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatCentsCompact,
  MAX_CENTS,
  centsToDecimal,
  centsToDollars,
  dollarsToCents,
  formatCents,
  formatDollars,
  isValidAmountCents,
  productCents,
} from './money.js';

/** Every amount the product moves: $0.00 … $999,999.99. */
const amountCents = fc.integer({ min: 0, max: 99_999_999 });
/** Every amount the module reads. */
const anyCents = fc.integer({ min: 0, max: MAX_CENTS });
const digit = fc.constantFrom(...'0123456789');
const digits = (minLength: number, maxLength: number) => fc.array(digit, { minLength, maxLength }).map((d) => d.join(''));
/** Whole dollars as people write them: no leading zero (but '0' itself). */
const whole = fc.oneof(
  fc.constant('0'),
  fc.tuple(fc.constantFrom(...'123456789'), digits(0, 12)).map(([a, b]) => a + b),
);
const twoDecimals = fc.tuple(whole, digits(2, 2)).map(([w, d]) => `${w}.${d}`);

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

describe('reading dollars', () => {
  it.each([
    [1, 100],
    ['1', 100],
    ['1.5', 150],
    [' 2.05 ', 205],
    [0.29, 29],
    [0.1 + 0.2, 30],
    [0.7 + 0.1, 80],
    [999999.99, 99999999],
    ['999999.99', 99999999],
    [19.99, 1999],
    ['007.50', 750],
    ['9999999999999.99', MAX_CENTS],
  ])('%j → %i cents', (dollars, cents) => expect(dollarsToCents(dollars)).toBe(cents));

  it.each([
    [1.001],
    ['1.001'],
    ['abc'],
    [''],
    [-1],
    ['-1'],
    ['1e3'],
    ['1E3'],
    [1e21],
    [1e-7],
    [Infinity],
    [-Infinity],
    [NaN],
    [null],
    [undefined],
    [true],
    [{}],
    [[5]],
    ['1.'],
    ['.5'],
    ['+5'],
    ['5 5'],
    ['1,000'],
    ['0x10'],
    [0.79999995],
    [1e300],
    ['99999999999999999999999'],
    ['10000000000000'],
    [Number.MAX_SAFE_INTEGER],
    [10_000_000_000_000],
  ])('refuses %j', (value) => expect(dollarsToCents(value)).toBeUndefined());

  it('reads back every amount it writes (parse ∘ format is the identity on cents)', () => {
    fc.assert(
      fc.property(amountCents, (cents) => {
        expect(dollarsToCents(centsToDecimal(cents))).toBe(cents);
        expect(dollarsToCents(centsToDollars(cents))).toBe(cents);
        expect(dollarsToCents(centsToDollars(cents).toFixed(2))).toBe(cents);
        expect(dollarsToCents(formatCents(cents).slice(1).replaceAll(',', ''))).toBe(cents);
      }),
    );
  });

  it('survives the trip through a JSON number up to its largest amount', () => {
    fc.assert(
      fc.property(anyCents, (cents) => {
        expect(dollarsToCents(JSON.parse(JSON.stringify(centsToDollars(cents))))).toBe(cents);
        expect(dollarsToCents(centsToDecimal(cents))).toBe(cents);
      }),
    );
  });

  it('writes back every two-decimal string it reads (format ∘ parse)', () => {
    fc.assert(
      fc.property(twoDecimals, (text) => {
        const cents = dollarsToCents(text);
        expect(cents).toBeDefined();
        expect(centsToDecimal(cents!)).toBe(text);
      }),
    );
  });

  it('never produces a float: every result is a safe, non-negative integer within MAX_CENTS', () => {
    const inputs = fc.oneof(
      fc.string(),
      fc.double(),
      fc.double({ min: 0, max: 1e7 }),
      fc.tuple(digits(1, 16), digits(0, 4)).map(([w, d]) => (d ? `${w}.${d}` : w)),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
    );
    fc.assert(
      fc.property(inputs, (value) => {
        const cents = dollarsToCents(value);
        if (cents === undefined) return;
        expect(Number.isSafeInteger(cents)).toBe(true);
        expect(cents).toBeGreaterThanOrEqual(0);
        expect(cents).toBeLessThanOrEqual(MAX_CENTS);
      }),
    );
  });

  it('reads a sum of wire amounts as the sum of their cents, float noise and all', () => {
    fc.assert(
      fc.property(amountCents, amountCents, (a, b) => {
        expect(dollarsToCents(centsToDollars(a) + centsToDollars(b))).toBe(a + b);
      }),
    );
  });

  it('refuses more than two decimals, signs, exponents and huge amounts', () => {
    fc.assert(
      fc.property(whole, digits(3, 8), fc.constantFrom('1', '2', '5', '7'), (w, d, last) => {
        expect(dollarsToCents(`${w}.${d}${last}`)).toBeUndefined();
        expect(dollarsToCents(`-${w}.${d.slice(0, 2)}`)).toBeUndefined();
        expect(dollarsToCents(`${w}e${d.length}`)).toBeUndefined();
        expect(dollarsToCents(`1${d}${w}0000000000000`)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: -0.01, noNaN: true }), (negative) => {
        expect(dollarsToCents(negative)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1e13, max: Number.MAX_VALUE, noNaN: true }), (huge) => {
        expect(dollarsToCents(huge)).toBeUndefined();
      }),
    );
  });
});

describe('writing money', () => {
  it.each([
    [0, '$0.00', '$0'],
    [5, '$0.05', '$0.05'],
    [500, '$5.00', '$5'],
    [250, '$2.50', '$2.50'],
    [123456, '$1,234.56', '$1,234.56'],
    [100_000_000, '$1,000,000.00', '$1,000,000'],
    [-150, '-$1.50', '-$1.50'],
  ])('%i cents → %s (brief %s)', (cents, full, brief) => {
    expect(formatCents(cents)).toBe(full);
    expect(formatCents(cents, { brief: true })).toBe(brief);
  });

  it('writes wire dollars as a person reads them, like Intl does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }), (cents) => {
        const dollars = centsToDollars(cents);
        expect(formatDollars(dollars)).toBe(usd.format(dollars));
      }),
    );
  });

  it('shows what is not an amount as $0.00', () => {
    expect(formatDollars(Number.NaN)).toBe('$0.00');
    expect(formatDollars(Number.POSITIVE_INFINITY)).toBe('$0.00');
  });

  it('writes the marketplace decimal strings', () => {
    expect(centsToDecimal(1250)).toBe('12.50');
    expect(centsToDecimal(7)).toBe('0.07');
    expect(centsToDecimal(MAX_CENTS)).toBe('9999999999999.99');
  });
});

describe("a product's cost (PRODUCT.md §5)", () => {
  const shipping = (value: string) => [{ shippingCostType: 'FIXED', shippingCost: { value, currency: 'USD' } }];
  it('reads the price and the first shipping cost in cents', () => {
    const product = { price: { value: '12.50', currency: 'USD' }, shippingOptions: [...shipping('3.99'), ...shipping('9.00')] };
    expect(productCents(product)).toEqual({ price: 1250, shipping: 399 });
  });
  it('leaves out what the marketplace does not give', () => {
    expect(productCents({ price: { value: 'n/a' }, shippingOptions: [] })).toEqual({ price: undefined, shipping: undefined });
    expect(productCents({})).toEqual({ price: undefined, shipping: undefined });
  });
});

describe('the amount rule (PRODUCT.md §5)', () => {
  it.each([
    [undefined, false],
    [99, false],
    [100, true],
    [99_999_999, true],
    [100_000_000, false],
  ])('%j cents valid: %s', (cents, valid) => expect(isValidAmountCents(cents)).toBe(valid));
});

describe('compact amounts (the top bar)', () => {
  it.each([
    [0, '$0.00'],
    [500, '$5.00'],
    [99_999, '$999.99'],
    [100_000, '$1K'],
    [123_456, '$1.2K'],
    [1_299_999, '$12.9K'],
    [99_999_999, '$999.9K'],
    [100_000_000, '$1M'],
    [125_000_000, '$1.2M'],
    [MAX_CENTS, '$9.9T'],
    [-123_456, '-$1.2K'],
  ])('%j cents → %s', (cents, text) => expect(formatCentsCompact(cents)).toBe(text));

  const compact = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
    roundingMode: 'trunc',
  } as Intl.NumberFormatOptions);

  it("is Intl's compact notation cut to one decimal from $1,000, the full amount below", () => {
    fc.assert(
      fc.property(anyCents, (cents) => {
        const text = formatCentsCompact(cents);
        expect(text).toBe(cents < 100_000 ? formatCents(cents) : compact.format(cents / 100));
      }),
    );
  });

  it('never shows more than there is, nor a tenth of its unit less, and stays short', () => {
    const unitOf = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 } as const;
    fc.assert(
      fc.property(fc.integer({ min: 100_000, max: MAX_CENTS }), (cents) => {
        const m = /^\$(\d+(?:\.\d)?)([KMBT])$/.exec(formatCentsCompact(cents));
        expect(m).not.toBeNull();
        const shownCents = Math.round(Number(m![1]) * 10) * unitOf[m![2] as keyof typeof unitOf] * 10;
        expect(shownCents).toBeLessThanOrEqual(cents);
        expect(cents - shownCents).toBeLessThan(unitOf[m![2] as keyof typeof unitOf] * 10);
        expect(formatCentsCompact(cents).length).toBeLessThanOrEqual(7);
      }),
    );
  });
});
