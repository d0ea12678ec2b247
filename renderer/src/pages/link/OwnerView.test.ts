import { describe, expect, it } from 'vitest';
import { LINK_CANCELLED, LINK_CANCELLED_BODY } from '../../../../api/contract/texts';
import { linkView } from '../../testing/links';
import { closedText } from './OwnerView';

const expiresAt = '2026-12-02T14:00:00.000Z';
const before = Date.parse(expiresAt) - 60_000;
const after = Date.parse(expiresAt) + 60_000;
const give = { giveorreceive: 'give', initialQuantity: 3, remainingQuantity: 0 } as const;
const group = (raised: number, gifts: number) => ({ raised, goal: 20, left: 20 - raised, gifts });

describe('closedText: why a link closed, as its owner reads it', () => {
  it('is nothing while the link is open', () => {
    expect(closedText(linkView({}, { expiresAt }), before)).toBeNull();
  });

  it('says a link closed before its time was cancelled', () => {
    const cancelled = linkView({ giveorreceive: 'give', remainingQuantity: 2 }, { status: 'expired', expiresAt });
    expect(closedText(cancelled, before)).toEqual({ title: LINK_CANCELLED, body: LINK_CANCELLED_BODY });
  });

  it('says who used it up: everyone a give link was for, the friends who filled a group gift, the one gift of an item', () => {
    expect(closedText(linkView(give, { status: 'used', expiresAt }), before)).toEqual({
      title: 'Used up',
      body: 'Everyone this link was for has used it.',
    });
    expect(closedText(linkView({ remainingQuantity: 0 }, { status: 'used', expiresAt, progress: group(20, 3) }), before)?.body).toBe(
      'Your friends filled it. The gifts are in your balance.',
    );
    expect(closedText(linkView({ type: 'item', remainingQuantity: 0 }, { status: 'used', expiresAt }), before)?.body).toBe(
      'Your gift arrived.',
    );
  });

  it('says what became of what was left once its time ran out', () => {
    expect(closedText(linkView({ ...give, remainingQuantity: 1 }, { expiresAt }), after)).toEqual({
      title: 'Expired',
      body: 'Its time ran out. Whatever was not used went back to your balance.',
    });
    expect(closedText(linkView({}, { status: 'expired', expiresAt, progress: group(12.5, 2) }), after)?.body).toBe(
      'Its time ran out with $12.50 of $20.00 given. The gifts are in your balance.',
    );
    expect(closedText(linkView({}, { status: 'expired', expiresAt, progress: group(0, 0) }), after)?.body).toBe('Its time ran out.');
  });
});
