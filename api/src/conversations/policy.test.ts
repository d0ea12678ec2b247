import { ruleTable } from '../testing/policy.js';
import type { Conversation } from './entity.js';
import { canMessage, canSeeConversation, canSeeMember, canSeePresence } from './policy.js';

const conversation = (initiatorId: string, responderId: string, initiatorAnonymous: boolean): Conversation => ({
  id: `c-${initiatorId}-${responderId}-${initiatorAnonymous}`,
  initiatorId,
  responderId,
  initiatorAnonymous,
  pairKey: initiatorAnonymous ? `anon:${initiatorId}` : `named:${initiatorId}:${responderId}`,
  lastMessageId: null,
  lastMessageAt: new Date(0),
  createdAt: new Date(0),
});

// G gave to R anonymously; R and N talk by name (N accepted R's give link).
const anonymous = conversation('G', 'R', true);
const named = conversation('R', 'N', false);

const members: [string, string, Conversation, boolean][] = [
  ['the anonymous giver', 'G', anonymous, true],
  ['the recipient of an anonymous gift', 'R', anonymous, true],
  ['an outsider, anonymous thread', 'N', anonymous, false],
  ['a named member', 'N', named, true],
  ['the other named member', 'R', named, true],
  ['an outsider, named thread', 'G', named, false],
];
ruleTable('canSeeConversation: a conversation is for its two members', canSeeConversation, members);
ruleTable('canMessage: its two members write in a conversation, no one else', canMessage, members);

ruleTable('canSeeMember: the anonymous giver is hidden from the recipient only', canSeeMember, [
  ['the recipient sees the anonymous giver', anonymous, 'R', 'G', false],
  ['the anonymous giver sees themselves', anonymous, 'G', 'G', true],
  ['the anonymous giver sees the recipient', anonymous, 'G', 'R', true],
  ['the recipient sees themselves', anonymous, 'R', 'R', true],
  ['a named member sees the other', named, 'N', 'R', true],
  ['the other named member sees them back', named, 'R', 'N', true],
]);

ruleTable('canSeePresence: only someone the viewer talks with by name', canSeePresence, [
  ['themselves, with no conversation', 'R', 'R', null, true],
  ['a stranger', 'R', 'X', null, false],
  ['an anonymous thread is never a named one', 'R', 'G', anonymous, false],
  ['nor for the anonymous giver', 'G', 'R', anonymous, false],
  ['a named counterpart', 'R', 'N', named, true],
  ['a named counterpart, the other way', 'N', 'R', named, true],
  ['the anonymous giver, also named to the recipient', 'R', 'G', conversation('R', 'G', false), true],
  ['a conversation of other people is no reason', 'R', 'X', conversation('X', 'N', false), false],
]);
