import { ruleTable } from '../testing/policy.js';
import { canRespondTo, canSeeLinkMetrics, canSeeProfileLink, canSeeVisitorBreakdown } from './policy.js';

const creator = { id: 'id-creator', isSubscribed: false };
const subscribedCreator = { id: 'id-creator', isSubscribed: true };
const other = { id: 'id-other', isSubscribed: false };
const subscriber = { id: 'id-subscriber', isSubscribed: true };
const link = { creatorId: 'id-creator' };

ruleTable("canSeeProfileLink: a user's links are theirs and subscribers' to see", canSeeProfileLink, [
  ['the owner', creator, { id: 'id-creator' }, true],
  ['a subscribed owner', subscribedCreator, { id: 'id-creator' }, true],
  ['another user', other, { id: 'id-creator' }, false],
  ['a subscriber', subscriber, { id: 'id-creator' }, true],
]);

// Each viewer, and whether they see the link's counts (views, distinct visitors).
const viewers: [string, { id: string; isSubscribed: boolean } | undefined, boolean][] = [
  ['the creator', creator, true],
  ['a subscribed creator', subscribedCreator, true],
  ['another user', other, false],
  ['a subscriber', subscriber, false],
  ['a visitor who is not signed in', undefined, false],
];
ruleTable(
  'canSeeLinkMetrics: the counts are for the creator',
  canSeeLinkMetrics,
  viewers.map(([name, viewer, counts]) => [name, viewer, link, counts]),
);
// Aggregates with small cells hidden, for a subscribed creator only; never who visited or when.
ruleTable('canSeeVisitorBreakdown: the breakdown is a subscribed creator’s', canSeeVisitorBreakdown, [
  ['the creator', creator, link, false],
  ['a subscribed creator', subscribedCreator, link, true],
  ['another user', other, link, false],
  ['a subscriber', subscriber, link, false],
  ['a visitor who is not signed in', undefined, link, false],
]);

ruleTable('canRespondTo: anyone but its creator uses a link', canRespondTo, [
  ['the creator', creator, link, false],
  ['another user', other, link, true],
  ['a subscriber', subscriber, link, true],
]);
