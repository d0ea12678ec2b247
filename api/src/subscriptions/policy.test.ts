import { ruleTable } from '../testing/policy.js';
import { isSubscribed } from '../users/policy.js';
import { canJoinCommunity, canSeeProfileLink, canSeeVisitorBreakdown, entitled } from './policy.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const later = new Date(NOW.getTime() + 1000);
const earlier = new Date(NOW.getTime() - 1000);

ruleTable('isSubscribed: while the paid period has not ended', isSubscribed, [
  ['never subscribed', { subscribedUntil: null }, NOW, false],
  ['paid until later', { subscribedUntil: later }, NOW, true],
  ['paid until a moment ago', { subscribedUntil: earlier }, NOW, false],
  ['paid until exactly now', { subscribedUntil: NOW }, NOW, false],
]);

const subscriber = entitled({ id: 'id-sub', subscribedUntil: later }, NOW);
const lapsed = entitled({ id: 'id-lapsed', subscribedUntil: earlier }, NOW);
const owner = entitled({ id: 'id-owner', subscribedUntil: null }, NOW);
const subscribedOwner = entitled({ id: 'id-owner', subscribedUntil: later }, NOW);
const link = { creatorId: 'id-owner' };

ruleTable('canSeeProfileLink: the owner and subscribers', canSeeProfileLink, [
  ['the owner', owner, { id: 'id-owner' }, true],
  ['a subscriber', subscriber, { id: 'id-owner' }, true],
  ['a lapsed subscriber', lapsed, { id: 'id-owner' }, false],
]);

ruleTable('canSeeVisitorBreakdown: a subscribed creator only', canSeeVisitorBreakdown, [
  ['the creator, not subscribed', owner, link, false],
  ['the creator, subscribed', subscribedOwner, link, true],
  ['a subscriber who is not the creator', subscriber, link, false],
  ['no one signed in', undefined, link, false],
]);

ruleTable('canJoinCommunity: subscribers only', canJoinCommunity, [
  ['a subscriber', subscriber, true],
  ['a lapsed subscriber', lapsed, false],
  ['never subscribed', owner, false],
]);
