import { describe, expect, it } from 'vitest';
import { linkView } from '../testing/links';
import { linkState, progressText } from './LinkCard';

const expiresAt = '2026-12-02T14:00:00.000Z';
const before = Date.parse(expiresAt) - 1;

describe('linkState: what its owner reads on a closed card', () => {
  it('is open while active, with a use left and time to run', () => {
    expect(linkState(linkView({}, { expiresAt }), before)).toBe('open');
  });

  it('is used once used, or once no use is left, even before its time runs out', () => {
    expect(linkState(linkView({}, { status: 'used', expiresAt }), before)).toBe('used');
    expect(linkState(linkView({ remainingQuantity: 0 }, { expiresAt }), before)).toBe('used');
    // Used up wins over expired: the last use closed it.
    expect(linkState(linkView({ remainingQuantity: 0 }, { status: 'expired', expiresAt }), Date.parse(expiresAt) + 1)).toBe('used');
  });

  it('is expired once closed early or once its time has come, even before the sweep', () => {
    expect(linkState(linkView({}, { status: 'expired', expiresAt }), before)).toBe('expired');
    expect(linkState(linkView({}, { expiresAt }), Date.parse(expiresAt))).toBe('expired');
  });
});

describe("progressText: a group gift's progress in words", () => {
  it('says how much of the goal, from how many people', () => {
    expect(progressText({ raised: 0, goal: 20, left: 20, gifts: 0 })).toBe('$0.00 of $20.00 so far');
    expect(progressText({ raised: 5, goal: 20, left: 15, gifts: 1 })).toBe('$5.00 of $20.00 from 1 person');
    expect(progressText({ raised: 12.5, goal: 1000, left: 987.5, gifts: 3 })).toBe('$12.50 of $1,000.00 from 3 people');
  });
});
