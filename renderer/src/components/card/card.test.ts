import { describe, expect, it } from 'vitest';
import {
  CARD_CVC_INVALID,
  CARD_EXPIRED,
  CARD_EXPIRY_INVALID,
  CARD_NUMBER_INVALID,
  TEST_CARDS,
  cardForConfirm,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  luhnValid,
  parseExpiry,
  validateCard,
} from './card';

const NOW = new Date(2026, 10, 23); // 23 Nov 2026

describe('formatCardNumber', () => {
  it('groups digits in fours as they are typed', () => {
    expect(formatCardNumber('4')).toBe('4');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
  });

  it('drops anything but digits and stops at 19 digits', () => {
    expect(formatCardNumber('4242-4242 4242.4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('abc')).toBe('');
    expect(formatCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });
});

describe('formatExpiry', () => {
  it('adds the separator after the month', () => {
    expect(formatExpiry('1', '')).toBe('1');
    expect(formatExpiry('12', '1')).toBe('12 / ');
    expect(formatExpiry('12 / 3', '12 / ')).toBe('12 / 3');
    expect(formatExpiry('12 / 345', '12 / 34')).toBe('12 / 34');
  });

  it('pads a month that can only have one digit', () => {
    expect(formatExpiry('4', '')).toBe('04 / ');
    expect(formatExpiry('1/', '1')).toBe('01 / ');
  });

  it('lets the user delete back through the separator', () => {
    expect(formatExpiry('12 /', '12 / ')).toBe('12');
    expect(formatExpiry('1', '12')).toBe('1');
  });

  it('takes a pasted date', () => {
    expect(formatExpiry('12/28', '')).toBe('12 / 28');
  });
});

describe('formatCvc', () => {
  it('keeps up to four digits', () => {
    expect(formatCvc('12a3')).toBe('123');
    expect(formatCvc('123456')).toBe('1234');
  });
});

describe('luhnValid', () => {
  it('accepts every test card and rejects a changed digit', () => {
    for (const card of TEST_CARDS) expect(luhnValid(card.number.replace(/ /g, ''))).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
});

describe('parseExpiry', () => {
  it('reads MM / YY and refuses a month that does not exist', () => {
    expect(parseExpiry('04 / 30')).toEqual({ month: 4, year: 2030 });
    expect(parseExpiry('04/30')).toEqual({ month: 4, year: 2030 });
    expect(parseExpiry('13 / 30')).toBeNull();
    expect(parseExpiry('00 / 30')).toBeNull();
    expect(parseExpiry('4 / 30')).toBeNull();
  });
});

describe('validateCard', () => {
  const good = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123' };

  it('accepts a well-formed card', () => {
    expect(validateCard(good, NOW)).toEqual({});
    expect(validateCard({ ...good, expiry: '11 / 26' }, NOW)).toEqual({});
  });

  it('names each field that is wrong', () => {
    expect(validateCard({ number: '4242 4242 4242 4241', expiry: '1', cvc: '12' }, NOW)).toEqual({
      number: CARD_NUMBER_INVALID,
      expiry: CARD_EXPIRY_INVALID,
      cvc: CARD_CVC_INVALID,
    });
    expect(validateCard({ ...good, number: '4242' }, NOW).number).toBe(CARD_NUMBER_INVALID);
  });

  it('refuses a card whose month has passed', () => {
    expect(validateCard({ ...good, expiry: '10 / 26' }, NOW).expiry).toBe(CARD_EXPIRED);
    expect(validateCard({ ...good, expiry: '12 / 25' }, NOW).expiry).toBe(CARD_EXPIRED);
  });
});

describe('cardForConfirm', () => {
  it('sends digits only and MM/YY', () => {
    expect(cardForConfirm({ number: '4000 0000 0000 0002', expiry: '04 / 30', cvc: '123' })).toEqual({
      cardNumber: '4000000000000002',
      expiry: '04/30',
      cvc: '123',
    });
  });
});
