import { describe, expect, it } from 'vitest';
import { isGiveAmountCents, isGroupGift, leftToGive } from './link-use.js';

describe('isGiveAmountCents', () => {
  it('takes $1 up to under $1,000,000 on any link', () => {
    for (const left of [null, 5000, 50]) {
      expect(isGiveAmountCents(100, left)).toBe(true);
      expect(isGiveAmountCents(99_999_999, left)).toBe(true);
      expect(isGiveAmountCents(100_000_000, left)).toBe(false);
    }
  });

  it('takes less than $1 only when it is exactly what a group gift has left', () => {
    expect(isGiveAmountCents(50, 50)).toBe(true);
    expect(isGiveAmountCents(99, 99)).toBe(true);
    expect(isGiveAmountCents(49, 50)).toBe(false);
    expect(isGiveAmountCents(50, 51)).toBe(false);
    expect(isGiveAmountCents(50, null)).toBe(false);
  });

  it('never takes nothing, nor an unreadable amount', () => {
    expect(isGiveAmountCents(0, 0)).toBe(false);
    expect(isGiveAmountCents(0, null)).toBe(false);
    expect(isGiveAmountCents(undefined, 50)).toBe(false);
  });
});

describe('group gifts', () => {
  it('are the receive currency links', () => {
    expect(isGroupGift({ type: 'currency', giveOrReceive: 'receive' })).toBe(true);
    expect(isGroupGift({ type: 'currency', giveOrReceive: 'give' })).toBe(false);
    expect(isGroupGift({ type: 'item', giveOrReceive: 'receive' })).toBe(false);
  });

  it('have their goal less what was raised left, never less than nothing', () => {
    expect(leftToGive({ totalCostCents: 2000, raisedCents: 0 })).toBe(2000);
    expect(leftToGive({ totalCostCents: 2000, raisedCents: 1950 })).toBe(50);
    expect(leftToGive({ totalCostCents: 2000, raisedCents: 2000 })).toBe(0);
    expect(leftToGive({ totalCostCents: 2000, raisedCents: 2100 })).toBe(0);
  });
});
