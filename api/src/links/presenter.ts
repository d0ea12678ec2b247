import { centsToDollars } from '../../contract/money.js';
import { isSubscribed } from '../users/policy.js';
import type { User } from '../users/entity.js';
import type { Link } from './entity.js';
import { isGroupGift, leftToGive } from '../../contract/link-use.js';
import type { LinkMetricsView, LinkView } from '../../contract/links.js';

/** `creator` is the link's creator (always named): their username and verified badge, as of `now`. */
export function presentLink(
  link: Link,
  creator: Pick<User, 'username' | 'subscribedUntil'>,
  metrics?: LinkMetricsView,
  now: Date = new Date(),
): LinkView {
  return {
    _id: link.id,
    id: link.id,
    creatorUsername: creator.username,
    creatorUserId: link.creatorId,
    creatorIsSubscribed: isSubscribed(creator, now),
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    status: link.status,
    details: {
      type: link.type,
      giveorreceive: link.giveOrReceive,
      amount: centsToDollars(link.amountCents),
      initialQuantity: link.initialQuantity,
      remainingQuantity: link.remainingQuantity,
      title: link.title,
      photo: link.photo,
      itemId: link.itemId,
      totalCost: centsToDollars(link.totalCostCents),
    },
    ...(isGroupGift(link)
      ? {
          progress: {
            raised: centsToDollars(link.raisedCents),
            goal: centsToDollars(link.totalCostCents),
            left: centsToDollars(leftToGive(link)),
            gifts: link.gifts,
          },
        }
      : {}),
    ...(metrics ? { metrics } : {}),
  };
}
