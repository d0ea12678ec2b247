import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import { findProduct } from '../catalog/service.js';
import { deliverGift, type Gift } from '../commands/deliver-gift.js';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { badRequest, forbidden, gone, isUniqueViolation, notFound } from '../errors.js';
import { centsToDollars, formatCents, productCents } from '../../contract/money.js';
import { INVALID_AMOUNT, ITEM_INFO_ERROR, overGoal } from '../../contract/texts.js';
import { MIN_AMOUNT_CENTS } from '../../contract/limits.js';
import { withIdempotency, type IdempotentAnswer } from '../money/idempotency.js';
import { SYSTEM_MARKETPLACE, escrowAccount, insufficientFunds, transfer, userAccount } from '../money/ledger.js';
import { publishAfterCommit, type Publisher, type RealtimeEvent } from '../realtime/publisher.js';
import type { User } from '../users/entity.js';
import { LinkEntity, LinkResponseEntity, type Link } from './entity.js';
import { closeExpired } from './expiry.js';
import { canRespondTo } from './policy.js';
import { presentLink } from './presenter.js';
import { isGroupGift, leftToGive } from './group-gift.js';
import { currentLink, findCreator, isOpen } from './queries.js';
import { ALREADY_USED, INCOMPLETE_LINK, LINK_GONE, LINK_NOT_FOUND, ONE_ACTIVE_LINK, OWN_POST, QUANTITY_REQUIRED } from './schemas.js';
import type { AcceptLinkResponse, GiveResponse, LinkDetailsInput, LinkView } from './schemas.js';

export interface LinkDeps {
  db: Database;
  catalog: Catalog;
  linkTtlHours: number;
  /** Gift messages and notifications go out through it once their transaction has committed. */
  realtime: Publisher;
}

/**
 * Creates the user's one active link. A give link moves its whole cost into the link's escrow
 * in the same transaction; an expired link of theirs is closed (and refunded) first.
 */
export async function createLink(
  deps: LinkDeps,
  user: User,
  details: z.output<typeof LinkDetailsInput>,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<LinkView>> {
  const quantityInput = details.initialQuantity ?? details.quantity;
  let amountCents: number;
  let quantity: number;
  let title: string | null = null;
  let photo: string | null = null;
  let itemId: string | null = null;
  if (details.type === 'currency') {
    if (details.amount === undefined) throw badRequest(INCOMPLETE_LINK, 'incomplete_link');
    if (details.giveorreceive === 'give' && quantityInput === undefined) throw badRequest(QUANTITY_REQUIRED, 'quantity_required');
    amountCents = details.amount;
    // A receive link has no quantity: its amount is the goal that any number of givers fill together.
    quantity = details.giveorreceive === 'give' ? (quantityInput ?? 1) : 1;
    title = formatCents(amountCents);
  } else {
    if (!details.itemId) throw badRequest(INCOMPLETE_LINK, 'incomplete_link');
    const product = await findProduct(deps.catalog, details.itemId);
    const { price, shipping } = productCents(product);
    if (price === undefined || shipping === undefined) throw badRequest(ITEM_INFO_ERROR, 'item_unavailable');
    amountCents = price + shipping;
    quantity = 1;
    title = product.title.slice(0, 255);
    photo = product.image?.imageUrl ?? null;
    itemId = product.itemId;
  }
  const totalCostCents = amountCents * quantity;
  if (!Number.isSafeInteger(totalCostCents) || totalCostCents >= 100_000_000)
    throw badRequest('A link can hold less than $1,000,000 in all.', 'too_large');

  return withIdempotency(deps.db, { key: idempotencyKey, userId: user.id, scope: 'links.create', input: details }, async (em) => {
    const now = new Date();
    await closeExpired(em, { creatorId: user.id, now });
    const link: Link = {
      id: crypto.randomUUID(),
      creatorId: user.id,
      type: details.type,
      giveOrReceive: details.giveorreceive,
      amountCents,
      initialQuantity: quantity,
      remainingQuantity: quantity,
      title,
      photo,
      itemId,
      totalCostCents,
      raisedCents: 0,
      gifts: 0,
      status: 'active',
      views: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.linkTtlHours * 3600_000),
      closedAt: null,
    };
    if (await em.existsBy(LinkEntity, { creatorId: user.id, status: 'active' })) throw badRequest(ONE_ACTIVE_LINK, 'one_active_link');
    try {
      await em.insert(LinkEntity, link);
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(ONE_ACTIVE_LINK, 'one_active_link');
      throw err;
    }
    if (link.giveOrReceive === 'give') {
      await transfer(em, {
        from: userAccount(user.id),
        to: escrowAccount(link.id),
        amountCents: totalCostCents,
        kind: 'escrow',
        actorUserId: user.id,
        insufficient: insufficientFunds(),
      });
    }
    return { status: 201, body: presentLink(link, user) };
  });
}

/**
 * Adds a gift to a group gift inside the transaction: one conditional update, so concurrent gifts
 * never take it past its goal; the gift that reaches the goal leaves no quantity (the caller closes
 * the link). A gift above what is left is a 400 that says how much is left; a closed link, a 410.
 */
async function addToGroupGift(em: EntityManager, link: Link, amountCents: number, now: Date): Promise<void> {
  const added = await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({
      raisedCents: () => 'raised_cents + :amount',
      gifts: () => 'gifts + 1',
      remainingQuantity: () => 'CASE WHEN raised_cents + :amount >= total_cost_cents THEN 0 ELSE remaining_quantity END',
    })
    .where('id = :id AND status = :active AND expires_at > :now AND raised_cents + :amount <= total_cost_cents', {
      id: link.id,
      active: 'active',
      now: dateParam(em, now),
      amount: amountCents,
    })
    .execute();
  if (added.affected === 1) return;
  const fresh = await em.findOneByOrFail(LinkEntity, { id: link.id });
  if (!isOpen(fresh, now)) throw gone(LINK_GONE);
  throw overGoalError(fresh);
}

const overGoalError = (link: Link) => badRequest(overGoal(formatCents(leftToGive(link))), 'over_goal');

/**
 * Takes one use of an open link for `responder`, inside the transaction, and answers the use's
 * id: the remaining quantity drops by a conditional update (never below zero) — a group gift's
 * raised amount grows instead, never past its goal (`addToGroupGift`) — and the use is recorded
 * once per responder. A link with nothing left is closed as used.
 */
async function takeUse(
  em: EntityManager,
  link: Link,
  responderId: string,
  kind: 'accept' | 'give',
  amountCents: number,
  transferId: string,
): Promise<string> {
  if (await em.existsBy(LinkResponseEntity, { linkId: link.id, responderId })) throw badRequest(ALREADY_USED, 'already_used');
  const now = new Date();
  if (isGroupGift(link)) await addToGroupGift(em, link, amountCents, now);
  else {
    const taken = await em
      .createQueryBuilder()
      .update(LinkEntity)
      .set({ remainingQuantity: () => 'remaining_quantity - 1', gifts: () => 'gifts + 1' })
      .where('id = :id AND status = :active AND remaining_quantity > 0 AND expires_at > :now', {
        id: link.id,
        active: 'active',
        now: dateParam(em, now),
      })
      .execute();
    if (taken.affected !== 1) throw gone(LINK_GONE);
  }
  await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ status: 'used', closedAt: now })
    .where('id = :id AND remaining_quantity = 0 AND status = :active', { id: link.id, active: 'active' })
    .execute();
  const id = crypto.randomUUID();
  try {
    await em.insert(LinkResponseEntity, {
      id,
      linkId: link.id,
      responderId,
      kind,
      amountCents,
      itemId: link.itemId,
      transferId,
      createdAt: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(ALREADY_USED, 'already_used');
    throw err;
  }
  return id;
}

const giftText = (link: Link, amountCents: number) =>
  link.type === 'currency' ? `You received a gift of ${formatCents(amountCents)}!` : `You received a gift: ${link.title ?? 'an item'}!`;

/**
 * The gift one use of `link` makes: `amountCents` paid `from` the link's escrow (accepting a give
 * link) or the giver's balance (giving to a receive link), to the recipient for currency or to
 * the marketplace for an item, which is ordered for them.
 */
function linkGift(
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

/** Uses a give link: the responder receives one use from escrow (currency) or the item is ordered for them. */
export async function acceptLink(
  deps: LinkDeps,
  responder: User,
  creatorUsername: string,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<AcceptLinkResponse>> {
  const creator = await findCreator(deps.db, creatorUsername);
  if (!canRespondTo(responder, { creatorId: creator.id })) throw forbidden('You cannot use your own link.');
  const events: RealtimeEvent[] = [];
  const answer = await withIdempotency(
    deps.db,
    { key: idempotencyKey, userId: responder.id, scope: 'links.accept', input: creatorUsername },
    async (em) => {
      const link = await currentLink(em, creator.id);
      if (link.giveOrReceive !== 'give') throw badRequest('This link asks for gifts: use Give instead.', 'not_a_give_link');
      const {
        transferId,
        conversation,
        message,
        events: made,
      } = await deliverGift(
        em,
        linkGift(
          link,
          link.amountCents,
          // The responder knows who made the give link: this gift is named.
          { giverId: creator.id, recipientId: responder.id, identity: 'named' },
          { from: escrowAccount(link.id), currencyKind: 'release', actorUserId: responder.id, insufficient: gone(LINK_GONE) },
        ),
      );
      await takeUse(em, link, responder.id, 'accept', link.amountCents, transferId);
      events.push(...made);
      return { status: 200, body: { conversationId: conversation.id, newMessage: { _id: message.id, text: message.text } } };
    },
  );
  return publishAfterCommit(deps.realtime, answer, events);
}

/**
 * Gives to a receive link in one atomic call: the giver pays (a chosen amount for currency, the
 * item's total for an item), the use is recorded, the gift message and notification are made.
 * Nothing moves unless all of it succeeds.
 */
export async function giveToLink(
  deps: LinkDeps,
  giver: User,
  input: { postId: string; amountCents?: number },
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<GiveResponse>> {
  const link = await deps.db.manager.findOneBy(LinkEntity, { id: input.postId });
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (!canRespondTo(giver, link)) throw badRequest(OWN_POST, 'own_post');
  if (link.giveOrReceive !== 'receive') throw badRequest('This link gives gifts: use Accept instead.', 'not_a_receive_link');
  const amountCents = link.type === 'item' ? link.amountCents : input.amountCents;
  if (amountCents === undefined) throw badRequest(INVALID_AMOUNT, 'validation_failed');
  // Less than the minimum only to give exactly what a group gift has left.
  if (link.type === 'currency' && amountCents < MIN_AMOUNT_CENTS && amountCents !== leftToGive(link))
    throw badRequest(INVALID_AMOUNT, 'validation_failed');
  const events: RealtimeEvent[] = [];
  const answer = await withIdempotency(deps.db, { key: idempotencyKey, userId: giver.id, scope: 'links.give', input }, async (em) => {
    const fresh = await em.findOneByOrFail(LinkEntity, { id: link.id });
    if (!isOpen(fresh, new Date())) throw gone(LINK_GONE);
    if (isGroupGift(fresh) && amountCents > leftToGive(fresh)) throw overGoalError(fresh);
    const {
      transferId,
      conversation,
      events: made,
    } = await deliverGift(
      em,
      linkGift(
        fresh,
        amountCents,
        { giverId: giver.id, recipientId: fresh.creatorId, identity: 'anonymous' },
        { from: userAccount(giver.id), currencyKind: 'give', actorUserId: giver.id, insufficient: insufficientFunds() },
      ),
    );
    const giveId = await takeUse(em, fresh, giver.id, 'give', amountCents, transferId);
    events.push(...made);
    return {
      status: 201,
      body: {
        give: { _id: giveId, type: fresh.type, amount: centsToDollars(amountCents), postId: fresh.id },
        conversationId: conversation.id,
      },
    };
  });
  return publishAfterCommit(deps.realtime, answer, events);
}
