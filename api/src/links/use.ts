import type { EntityManager } from 'typeorm';
import type { Catalog } from '../catalog/catalog.js';
import type { Gift } from '../commands/deliver-gift.js';
import type { Database } from '../db/index.js';
import { appendedRowId } from '../db/ids.js';
import { badRequest, gone, isUniqueViolation } from '../errors.js';
import { formatCents } from '../../contract/money.js';
import { overGoal } from '../../contract/texts.js';
import { SYSTEM_MARKETPLACE, userAccount } from '../money/ledger.js';
import type { Publisher } from '../realtime/publisher.js';
import { LinkEntity, type Link } from './entity.js';
import { isGroupGift, leftToGive } from '../../contract/link-use.js';
import { ALREADY_USED, LINK_GONE } from '../../contract/texts.js';
import { isOpen } from './service.js';
import { recordUse } from './store.js';

/** What the link commands (create-link.ts, accept-link.ts, give-to-link.ts) need. */
export interface LinkDeps {
  db: Database;
  catalog: Catalog;
  linkTtlHours: number;
  /** Gift messages and notifications go out through it once their transaction has committed. */
  realtime: Publisher;
}

/** A group gift asked for more than it has left: the 400 says how much that is. */
export const overGoalError = (link: Link) => badRequest(overGoal(formatCents(leftToGive(link))), 'over_goal');

/**
 * Takes one use of an open link for `responder`, inside the transaction, and answers the use's
 * id: the use is recorded once per responder (the unique (link, responder) pair: a second is a 400
 * `already_used`), then the link's row changes by one conditional update (`recordUse`,
 * links/store.ts), so concurrent uses never take more than there is. A link that could not be
 * used is a 410, or for a group gift with too little left, a 400 that says how much is left.
 */
export async function takeUse(
  em: EntityManager,
  link: Link,
  responderId: string,
  kind: 'accept' | 'give',
  amountCents: number,
  transferId: string,
): Promise<string> {
  const now = new Date();
  const id = appendedRowId();
  const group = isGroupGift(link);
  let taken: number;
  try {
    taken = await recordUse(em, { id, link, responderId, kind, amountCents, transferId, at: now }, group);
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(ALREADY_USED, 'already_used');
    throw err;
  }
  if (taken === 1) return id;
  const fresh = await em.findOneByOrFail(LinkEntity, { id: link.id });
  if (!group || !isOpen(fresh, now)) throw gone(LINK_GONE);
  throw overGoalError(fresh);
}

const giftText = (link: Link, amountCents: number) =>
  link.type === 'currency' ? `You received a gift of ${formatCents(amountCents)}!` : `You received a gift: ${link.title ?? 'an item'}!`;

/**
 * The gift one use of `link` makes: `amountCents` paid `from` the link's escrow (accepting a give
 * link) or the giver's balance (giving to a receive link), to the recipient for currency or to
 * the marketplace for an item, which is ordered for them.
 */
export function linkGift(
  link: Link,
  amountCents: number,
  parties: Pick<Gift, 'giverId' | 'recipientId' | 'identity'>,
  paid: Pick<Gift['payment'], 'from' | 'actorUserId' | 'insufficient'> & { currencyKind: 'release' | 'give' },
): Gift {
  const text = giftText(link, amountCents);
  const currency = link.type === 'currency';
  return {
    ...parties,
    amountCents,
    text,
    payment: {
      from: paid.from,
      to: currency ? userAccount(parties.recipientId) : SYSTEM_MARKETPLACE,
      kind: currency ? paid.currencyKind : 'purchase',
      actorUserId: paid.actorUserId,
      insufficient: paid.insufficient,
    },
    card: { title: currency ? formatCents(amountCents) : (link.title ?? text), giftType: link.type, img: link.photo },
    source: {
      type: link.type,
      giveOrReceive: link.giveOrReceive,
      linkOrWishlist: 'link',
      relatedPostId: link.id,
      itemTitle: link.type === 'item' ? link.title : null,
      itemId: link.itemId,
    },
  };
}
