import { centsToDollars } from '../../contract/money.js';
import type { Link } from './entity.js';
import { isGroupGift, leftToGive } from './group-gift.js';
import type { LinkMetricsView, LinkView } from './schemas.js';

export function presentLink(link: Link, creatorUsername: string, metrics?: LinkMetricsView): LinkView {
  return {
    _id: link.id,
    id: link.id,
    creatorUsername,
    creatorUserId: link.creatorId,
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
