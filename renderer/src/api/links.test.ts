import { describe, expect, it } from 'vitest';
import { linkView } from '../testing/links';
import type { LinkView } from './types';
import { linkAfterUse } from './links';

/** A $20 group gift with `raised` dollars from `gifts` givers. */
function groupGift(raised: number, gifts: number): LinkView {
  return linkView({}, { progress: { raised, goal: 20, left: 20 - raised, gifts } });
}

/** A give link of $5 a use with `left` of `quantity` uses. */
function giveLink(left: number, quantity = 3): LinkView {
  return linkView({ giveorreceive: 'give', amount: 5, initialQuantity: quantity, remainingQuantity: left, totalCost: 5 * quantity });
}

describe("linkAfterUse: the link page's optimistic update after a use", () => {
  it("adds a group gift's amount to what is raised, and counts the giver", () => {
    const after = linkAfterUse(groupGift(5, 1), 7.5);
    expect(after.progress).toEqual({ raised: 12.5, goal: 20, left: 7.5, gifts: 2 });
    expect(after.status).toBe('active');
    expect(after.details.remainingQuantity).toBe(1);
  });

  it('closes a group gift with the gift that reaches its goal', () => {
    const after = linkAfterUse(groupGift(15, 3), 5);
    expect(after.progress).toEqual({ raised: 20, goal: 20, left: 0, gifts: 4 });
    expect(after.status).toBe('used');
    expect(after.details.remainingQuantity).toBe(0);
  });

  it('adds in cents, not floats', () => {
    const after = linkAfterUse(groupGift(0.1, 1), 0.2);
    expect(after.progress?.raised).toBe(0.3);
    expect(after.progress?.left).toBe(19.7);
  });

  it('takes exactly what is left under $1, and closes', () => {
    const after = linkAfterUse(groupGift(19.5, 2), 0.5);
    expect(after.progress).toMatchObject({ raised: 20, left: 0, gifts: 3 });
    expect(after.status).toBe('used');
  });

  it('leaves the link as it is when the gift is more than is left, or the link is closed', () => {
    const almost = groupGift(18, 2);
    expect(linkAfterUse(almost, 5)).toBe(almost);
    const closed = linkView({ remainingQuantity: 0 }, { status: 'used', progress: { raised: 20, goal: 20, left: 0, gifts: 4 } });
    expect(linkAfterUse(closed, 1)).toBe(closed);
  });

  it('takes one use of a give link, whatever the amount, and closes it with its last', () => {
    const after = linkAfterUse(giveLink(3), 5);
    expect(after.details.remainingQuantity).toBe(2);
    expect(after.status).toBe('active');
    expect(after.progress).toBeUndefined();
    const last = linkAfterUse(giveLink(1), 5);
    expect(last.details.remainingQuantity).toBe(0);
    expect(last.status).toBe('used');
    const none = giveLink(0);
    expect(linkAfterUse(none, 5)).toBe(none);
  });

  it('closes an item link with its one give', () => {
    const item = linkView({ type: 'item', title: 'Mug', amount: 12, totalCost: 12 });
    const after = linkAfterUse(item, 12);
    expect(after.status).toBe('used');
    expect(after.details.remainingQuantity).toBe(0);
    expect(after.progress).toBeUndefined();
  });
});
