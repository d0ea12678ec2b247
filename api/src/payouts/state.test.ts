import { describe, expect, it } from 'vitest';
import type { ConnectAccountState } from '../payments/connect.js';
import { payoutStatusOf } from './state.js';

const account = (fields: Partial<ConnectAccountState>): ConnectAccountState => ({
  accountId: 'acct_x',
  detailsSubmitted: false,
  payoutsEnabled: false,
  currentlyDue: [],
  disabledReason: null,
  bankLast4: null,
  ...fields,
});

describe('payoutStatusOf', () => {
  it.each([
    ['a new account, everything due', { currentlyDue: ['external_account'], disabledReason: 'requirements.past_due' }, 'details_needed'],
    ['submitted, Stripe still checking', { detailsSubmitted: true }, 'details_needed'],
    [
      'submitted, more due later',
      { detailsSubmitted: true, payoutsEnabled: true, currentlyDue: ['individual.verification.document'] },
      'details_needed',
    ],
    ['payouts on, nothing due', { detailsSubmitted: true, payoutsEnabled: true }, 'ready'],
    ['disabled after submitting', { detailsSubmitted: true, disabledReason: 'rejected.fraud' }, 'restricted'],
    [
      'past due after submitting',
      { detailsSubmitted: true, currentlyDue: ['individual.id_number'], disabledReason: 'requirements.past_due' },
      'restricted',
    ],
    ['payouts on but disabled', { detailsSubmitted: true, payoutsEnabled: true, disabledReason: 'platform_paused' }, 'restricted'],
  ] as const)('%s → %s', (_label, fields, status) => {
    expect(
      payoutStatusOf(account({ ...fields, currentlyDue: [...((fields as { currentlyDue?: readonly string[] }).currentlyDue ?? [])] })),
    ).toBe(status);
  });
});
