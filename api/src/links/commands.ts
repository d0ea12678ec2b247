import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import { findProduct } from '../catalog/service.js';
import { blockedSql } from '../blocks/service.js';
import { anonymousPairKeySql } from '../identity/identity.js';
import { deliverGift, type Gift } from '../commands/deliver-gift.js';
import type { Database } from '../db/index.js';
import { dateFrom, isPostgres, read, run, sql, together, type Outcome, type SqlValue } from '../db/sql.js';
import { badRequest, forbidden, gone, isUniqueViolation, notFound } from '../errors.js';
import { centsToDollars, formatCents, productCents } from '../../contract/money.js';
import { INVALID_AMOUNT, ITEM_INFO_ERROR, overGoal } from '../../contract/texts.js';
import { MIN_AMOUNT_CENTS } from '../../contract/limits.js';
import { withIdempotency, type IdempotentAnswer } from '../money/idempotency.js';
import { SYSTEM_MARKETPLACE, escrowAccount, insufficientFunds, transfer, userAccount } from '../money/ledger.js';
import { publishAfterCommit, type Publisher, type RealtimeEvent } from '../realtime/publisher.js';
import type { User } from '../users/entity.js';
import { LinkEntity, type Link } from './entity.js';
import { closeExpired } from './expiry.js';
import { canRespondTo } from './policy.js';
import { presentLink } from './presenter.js';
import { isGroupGift, leftToGive } from './group-gift.js';
import { currentLink, findCreator, isOpen } from './queries.js';
import { ALREADY_USED, INCOMPLETE_LINK, LINK_GONE, LINK_NOT_FOUND, ONE_ACTIVE_LINK, OWN_POST, QUANTITY_REQUIRED } from './schemas.js';
import type { AcceptLinkResponse, GiveResponse, LinkDetailsInput, LinkView } from './schemas.js';
import { appendedRowId } from '../db/ids.js';

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
        insufficient: insufficientFunds,
      });
    }
    return { status: 201, body: presentLink(link, user) };
  });
}

/*
 * One use of a link is one conditional update of its row, which also closes the link (`used`) when
 * it leaves no quantity: the remaining quantity drops by one, never below zero, or a group gift's
 * raised amount grows, never past its goal, and the gift that reaches the goal leaves no quantity.
 * SET expressions read the row as it was before the update.
 */
const TAKE_USE = `UPDATE links SET remaining_quantity = remaining_quantity - 1, gifts = gifts + 1,
     status = CASE WHEN remaining_quantity = 1 THEN 'used' ELSE status END,
     closed_at = CASE WHEN remaining_quantity = 1 THEN $2 ELSE closed_at END
   WHERE id = $1 AND status = 'active' AND remaining_quantity > 0 AND expires_at > $2`;
const ADD_TO_GROUP_GIFT = `UPDATE links SET raised_cents = raised_cents + $3, gifts = gifts + 1,
     remaining_quantity = CASE WHEN raised_cents + $3 >= total_cost_cents THEN 0 ELSE remaining_quantity END,
     status = CASE WHEN raised_cents + $3 >= total_cost_cents OR remaining_quantity = 0 THEN 'used' ELSE status END,
     closed_at = CASE WHEN raised_cents + $3 >= total_cost_cents OR remaining_quantity = 0 THEN $2 ELSE closed_at END
   WHERE id = $1 AND status = 'active' AND expires_at > $2 AND raised_cents + $3 <= total_cost_cents`;
/** The record of the use: link $1, at $2, amount $3. */
const RECORD_USE = `INSERT INTO link_responses (id, link_id, responder_id, kind, amount_cents, item_id, transfer_id, created_at)
   VALUES ($4, $1, $5, $6, $3, $7, $8, $2)`;
/**
 * SQLite: the record, then the update, which leaves `status` alone: SQLite rewrites the entries of
 * every index over a column a SET names, changed or not, and `status` is in three of the links'
 * indexes (three more pages written per give, issue 15). The use that leaves no quantity then
 * closes the link with a second statement, in the same transaction. (PostgreSQL compares values:
 * an unchanged `status` keeps the update HOT, so it closes the link in the same statement.)
 */
const SQLITE_USE = {
  record: sql(RECORD_USE),
  take: sql(`UPDATE links SET remaining_quantity = remaining_quantity - 1, gifts = gifts + 1
     WHERE id = $1 AND status = 'active' AND remaining_quantity > 0 AND expires_at > $2 RETURNING remaining_quantity AS "left"`),
  add: sql(`UPDATE links SET raised_cents = raised_cents + $3, gifts = gifts + 1,
     remaining_quantity = CASE WHEN raised_cents + $3 >= total_cost_cents THEN 0 ELSE remaining_quantity END
     WHERE id = $1 AND status = 'active' AND expires_at > $2 AND raised_cents + $3 <= total_cost_cents RETURNING remaining_quantity AS "left"`),
  close: sql(`UPDATE links SET status = 'used', closed_at = $2 WHERE id = $1`),
};
/** PostgreSQL: both in one statement (one round trip); the update only once the record is in. */
const POSTGRES_USE = {
  take: sql(`WITH used AS (${RECORD_USE} RETURNING 1) ${TAKE_USE} AND EXISTS (SELECT 1 FROM used)`),
  add: sql(`WITH used AS (${RECORD_USE} RETURNING 1) ${ADD_TO_GROUP_GIFT} AND EXISTS (SELECT 1 FROM used)`),
};

const overGoalError = (link: Link) => badRequest(overGoal(formatCents(leftToGive(link))), 'over_goal');

/**
 * Takes one use of an open link for `responder`, inside the transaction, and answers the use's
 * id: the use is recorded once per responder (the unique (link, responder) pair: a second is a 400
 * `already_used`), then the link's row changes by one conditional update (TAKE_USE, or
 * ADD_TO_GROUP_GIFT for a group gift), so concurrent uses never take more than there is. A link
 * that could not be used is a 410, or for a group gift with too little left, a 400 that says how
 * much is left.
 */
async function takeUse(
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
  const use: SqlValue[] = [link.id, now, amountCents, id, responderId, kind, link.itemId, transferId];
  let taken: Outcome<unknown>;
  try {
    if (isPostgres(em)) taken = await run(em, group ? POSTGRES_USE.add : POSTGRES_USE.take, use);
    else {
      await run(em, SQLITE_USE.record, use);
      const used = group
        ? await run<{ left: number }>(em, SQLITE_USE.add, use.slice(0, 3))
        : await run<{ left: number }>(em, SQLITE_USE.take, use.slice(0, 2));
      if (used.rows[0]?.left === 0) await run(em, SQLITE_USE.close, use.slice(0, 2));
      taken = used;
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(ALREADY_USED, 'already_used');
    throw err;
  }
  if (taken.changes === 1) return id;
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
  let events: RealtimeEvent[] = [];
  const answer = await withIdempotency(
    deps.db,
    // Replayable: the work's only effect outside the database is `events`, set (not added to) by its last run.
    { key: idempotencyKey, userId: responder.id, scope: 'links.accept', input: creatorUsername, replayable: true },
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
          { from: escrowAccount(link.id), currencyKind: 'release', actorUserId: responder.id, insufficient: () => gone(LINK_GONE) },
        ),
      );
      await takeUse(em, link, responder.id, 'accept', link.amountCents, transferId);
      events = made;
      return { status: 200, body: { conversationId: conversation.id, newMessage: { _id: message.id, text: message.text } } };
    },
  );
  return publishAfterCommit(deps.realtime, answer, events);
}

/**
 * Link $1, and whether its creator has blocked anonymous giver $2's persona (deliverGift's question,
 * asked here: one statement fewer per give).
 */
const LINK_FOR_GIVER = sql(
  `SELECT links.*, ${blockedSql('links.creator_id', anonymousPairKeySql('$2', 'links.creator_id'))} AS giver_blocked FROM links WHERE id = $1`,
);

/** A row of `links` as read by `read` (snake_case; bigints may come back as strings). */
type LinkRow = Record<
  | 'id'
  | 'creator_id'
  | 'type'
  | 'give_or_receive'
  | 'amount_cents'
  | 'initial_quantity'
  | 'remaining_quantity'
  | 'title'
  | 'photo'
  | 'item_id'
  | 'total_cost_cents'
  | 'raised_cents'
  | 'gifts'
  | 'status'
  | 'views'
  | 'created_at'
  | 'expires_at'
  | 'closed_at',
  unknown
>;

const linkFrom = (r: LinkRow): Link => ({
  id: r.id as string,
  creatorId: r.creator_id as string,
  type: r.type as Link['type'],
  giveOrReceive: r.give_or_receive as Link['giveOrReceive'],
  amountCents: Number(r.amount_cents),
  initialQuantity: Number(r.initial_quantity),
  remainingQuantity: Number(r.remaining_quantity),
  title: r.title as string | null,
  photo: r.photo as string | null,
  itemId: r.item_id as string | null,
  totalCostCents: Number(r.total_cost_cents),
  raisedCents: Number(r.raised_cents),
  gifts: Number(r.gifts),
  status: r.status as Link['status'],
  views: Number(r.views),
  createdAt: dateFrom(r.created_at),
  expiresAt: dateFrom(r.expires_at),
  closedAt: r.closed_at === null ? null : dateFrom(r.closed_at),
});

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
  const [row] = await read<LinkRow & { giver_blocked: boolean | number }>(deps.db, LINK_FOR_GIVER, [input.postId, giver.id]);
  if (!row) throw notFound(LINK_NOT_FOUND);
  const link = linkFrom(row);
  if (!canRespondTo(giver, link)) throw badRequest(OWN_POST, 'own_post');
  if (link.giveOrReceive !== 'receive') throw badRequest('This link gives gifts: use Accept instead.', 'not_a_receive_link');
  const amountCents = link.type === 'item' ? link.amountCents : input.amountCents;
  if (amountCents === undefined) throw badRequest(INVALID_AMOUNT, 'validation_failed');
  // Less than the minimum only to give exactly what a group gift has left.
  if (link.type === 'currency' && amountCents < MIN_AMOUNT_CENTS && amountCents !== leftToGive(link))
    throw badRequest(INVALID_AMOUNT, 'validation_failed');
  let events: RealtimeEvent[] = [];
  // Replayable: the work's only effect outside the database is `events`, set (not added to) by its last run.
  const request = { key: idempotencyKey, userId: giver.id, scope: 'links.give', input, replayable: true };
  const answer = await withIdempotency(deps.db, request, async (em) => {
    // Checked on the link as read above; the use itself (takeUse) checks it again in one conditional update.
    if (!isOpen(link, new Date())) throw gone(LINK_GONE);
    if (isGroupGift(link) && amountCents > leftToGive(link)) throw overGoalError(link);
    const gift = linkGift(
      link,
      amountCents,
      { giverId: giver.id, recipientId: link.creatorId, identity: 'anonymous' },
      { from: userAccount(giver.id), currencyKind: 'give', actorUserId: giver.id, insufficient: insufficientFunds },
    );
    // The gift and the use are started together (on PostgreSQL one write: the members, the message,
    // the payment, the use, in this order, which is the order they lock rows in); the use records
    // the payment's id.
    const transferId = appendedRowId();
    const [{ conversation, events: made }, giveId] = await together(
      deliverGift(em, { ...gift, payment: { ...gift.payment, id: transferId }, blocked: Boolean(row.giver_blocked) }),
      takeUse(em, link, giver.id, 'give', amountCents, transferId),
    );
    events = made;
    return {
      status: 201,
      body: {
        give: { _id: giveId, type: link.type, amount: centsToDollars(amountCents), postId: link.id },
        conversationId: conversation.id,
      },
    };
  });
  return publishAfterCommit(deps.realtime, answer, events);
}
