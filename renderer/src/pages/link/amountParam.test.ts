import { describe, expect, it } from 'vitest';
import { formatAmountParam, parseAmountParam } from './amountParam';

describe('parseAmountParam', () => {
  it('reads whole dollars and up to two decimals', () => {
    expect(parseAmountParam('5')).toBe(5);
    expect(parseAmountParam('7.25')).toBe(7.25);
    expect(parseAmountParam('7.5')).toBe(7.5);
    expect(parseAmountParam('1')).toBe(1);
    expect(parseAmountParam('999999.99')).toBe(999999.99);
  });

  it("refuses what the product's amounts do not allow: under $1, $1,000,000 or more, three decimals", () => {
    expect(parseAmountParam('0.99')).toBeNull();
    expect(parseAmountParam('0')).toBeNull();
    expect(parseAmountParam('1000000')).toBeNull();
    expect(parseAmountParam('7.255')).toBeNull();
  });

  it('refuses anything that is not a plain amount', () => {
    for (const value of [null, '', ' ', '-5', '+5', '5e2', '.5', '5.', '$5', '5,00', 'abc', 'NaN', 'Infinity']) {
      expect(parseAmountParam(value), String(value)).toBeNull();
    }
  });
});

describe('formatAmountParam', () => {
  it('writes whole dollars bare and other amounts with their cents', () => {
    expect(formatAmountParam(5)).toBe('5');
    expect(formatAmountParam(7.25)).toBe('7.25');
    expect(formatAmountParam(7.5)).toBe('7.50');
    expect(formatAmountParam(999999.99)).toBe('999999.99');
  });

  it('is read back as the same amount', () => {
    for (const amount of [1, 5, 7.25, 7.5, 10, 0.1 + 0.2 + 1, 999999.99]) {
      expect(parseAmountParam(formatAmountParam(amount))).toBe(Math.round(amount * 100) / 100);
    }
  });
});
