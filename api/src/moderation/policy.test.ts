import { describe, expect, it } from 'vitest';
import type { Conversation } from '../conversations/entity.js';
import { ruleTable } from '../testing/policy.js';
import { isSuspended } from '../users/policy.js';
import { canReport, reportedAccountOf } from './policy.js';

// G gave to R anonymously.
const anonymous: Conversation = {
  id: 'c',
  initiatorId: 'G',
  responderId: 'R',
  initiatorAnonymous: true,
  pairKey: 'anon:p',
  lastMessageId: null,
  lastMessageAt: new Date(0),
  createdAt: new Date(0),
};

ruleTable('canReport: only a member reports a conversation or its messages', canReport, [
  ['the recipient of an anonymous gift', 'R', anonymous, true],
  ['the anonymous giver', 'G', anonymous, true],
  ['an outsider', 'N', anonymous, false],
]);

ruleTable('isSuspended', (at: Date | null) => isSuspended({ suspendedAt: at }), [
  ['never suspended', null, false],
  ['suspended', new Date(0), true],
]);

describe('reportedAccountOf', () => {
  it('is the other member, whichever side reports', () => {
    expect(reportedAccountOf('R', anonymous)).toBe('G');
    expect(reportedAccountOf('G', anonymous)).toBe('R');
  });
});
