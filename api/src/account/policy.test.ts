import { describe, expect, it } from 'vitest';
import { giveLinkHoldsEscrow, PAYMENT_STILL_PENDING, withdrawBalanceFirst } from '../../contract/texts.js';
import { isUsernameReleased } from '../users/policy.js';
import { CANCEL_SUBSCRIPTION_FIRST, cannotClose } from './policy.js';

describe('account closing rules', () => {
  it.each([
    [{ balanceCents: 0, escrowCents: 0 }, null],
    [
      { balanceCents: 1, escrowCents: 0 },
      { code: 'balance_held', message: withdrawBalanceFirst('$0.01') },
    ],
    [
      { balanceCents: 123456, escrowCents: 500 },
      { code: 'balance_held', message: withdrawBalanceFirst('$1,234.56') },
    ],
    [
      { balanceCents: 0, escrowCents: 1000 },
      { code: 'escrow_held', message: giveLinkHoldsEscrow('$10.00') },
    ],
    [
      { balanceCents: 0, escrowCents: 0, pendingPayments: 1 },
      { code: 'payment_pending', message: PAYMENT_STILL_PENDING },
    ],
    [
      { balanceCents: 0, escrowCents: 0, renewingSubscription: true },
      { code: 'subscription_renewing', message: CANCEL_SUBSCRIPTION_FIRST },
    ],
  ])('money held %o → %o', (held, expected) => {
    expect(cannotClose(held)).toEqual(expected);
  });

  const now = new Date('2026-11-23T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);
  it.each([
    [null, false],
    [daysAgo(0), false],
    [daysAgo(29.9), false],
    [daysAgo(30.01), true],
    [daysAgo(400), true],
  ])('closed at %s → username released: %s', (closedAt, released) => {
    expect(isUsernameReleased(closedAt, now)).toBe(released);
  });
});
