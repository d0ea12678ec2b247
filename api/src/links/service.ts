import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import { toCents } from '../catalog/price.js';
import { findProduct } from '../catalog/service.js';
import { recordGiftMessage } from '../conversations/service.js';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { AppError, badRequest, forbidden, gone, isUniqueViolation, notFound } from '../errors.js';
import { centsToDollars } from '../money/cents.js';
import type { IdempotentAnswer } from '../money/idempotency.js';
import { withIdempotency } from '../money/idempotency.js';
import {
  balanceOf,
  escrowAccount,
  insufficientFunds,
  transfer,
  userAccount,
  type AccountKey,
} from '../money/ledger.js';
import { notify } from '../notifications/service.js';
import type { Publisher, RealtimeEvent } from '../realtime/publisher.js';
import { UserEntity, type User } from '../users/entity.js';
import { LinkEntity, LinkResponseEntity, LinkVisitorEntity, type Link } from './entity.js';
import { presentLink } from './presenter.js';
import type { ViewCounter, Visit } from './views.js';
import {
  ALREADY_USED,
  INCOMPLETE_LINK,
  LINK_GONE,
  LINK_NOT_FOUND,
  LINK_PAGE_SIZE,
  ONE_ACTIVE_LINK,
  OWN_POST,
  QUANTITY_REQUIRED,
  type AcceptLinkResponse,
  type GiveResponse,
  type LinkDetailsInput,
  type LinkMetricsView,
  type LinkView,
} from './schemas.js';

/** Where the money for an item gift goes: the marketplace order placed for the recipient. */
export const SYSTEM_MARKETPLACE: AccountKey = 'system:marketplace';

export interface LinkDeps {
  db: Database;
  catalog: Catalog;
  linkTtlHours: number;
  /** Gift messages and notifications go out through it once their transaction has committed. */
  realtime: Publisher;
}

/** Publishes what a committed money transaction made; a replayed answer made nothing new. */
function publishAfterCommit<T>(deps: LinkDeps, answer: IdempotentAnswer<T>, events: RealtimeEvent[]): IdempotentAnswer<T> {
  if (!answer.replayed) deps.realtime.publish(events);
  return answer;
}

const isOpen = (link: Link, now: Date) => link.status === 'active' && link.expiresAt > now && link.remainingQuantity > 0;

const dollars = (cents: number) => `$${centsToDollars(cents).toFixed(2)}`;

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
    quantity = quantityInput ?? 1;
    title = dollars(amountCents);
  } else {
    if (!details.itemId) throw badRequest(INCOMPLETE_LINK, 'incomplete_link');
    const product = await findProduct(deps.catalog, details.itemId);
    const price = toCents(product.price.value);
    const shipping = toCents(product.shippingOptions[0]?.shippingCost?.value ?? '');
    if (price === undefined || shipping === undefined)
      throw badRequest("There was an error loading this item's information. Please try again later.", 'item_unavailable');
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
      status: 'active',
      views: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.linkTtlHours * 3600_000),
      closedAt: null,
    };
    if (await em.existsBy(LinkEntity, { creatorId: user.id, status: 'active' }))
      throw badRequest(ONE_ACTIVE_LINK, 'one_active_link');
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
    return { status: 201, body: presentLink(link, user.username) };
  });
}

/**
 * Closes links whose time ran out and gives a give link's unused escrow back to its creator —
 * exactly once: the status flip is a conditional update, so of two racing sweeps (two API
 * processes) only one wins each link.
 */
async function closeExpired(em: EntityManager, scope: { creatorId?: string; now: Date }): Promise<number> {
  const qb = em
    .createQueryBuilder(LinkEntity, 'l')
    .where('l.status = :active', { active: 'active' })
    .andWhere('l.expires_at <= :now', { now: dateParam(em, scope.now) });
  if (scope.creatorId) qb.andWhere('l.creator_id = :creatorId', { creatorId: scope.creatorId });
  const due = await qb.orderBy('l.expires_at', 'ASC').limit(200).getMany();
  let closed = 0;
  for (const link of due) {
    const result = await em
      .createQueryBuilder()
      .update(LinkEntity)
      .set({ status: 'expired', closedAt: scope.now })
      .where('id = :id AND status = :active', { id: link.id, active: 'active' })
      .execute();
    if (result.affected !== 1) continue;
    closed += 1;
    if (link.giveOrReceive !== 'give') continue;
    const held = await balanceOf(em, escrowAccount(link.id));
    if (held > 0)
      await transfer(em, { from: escrowAccount(link.id), to: userAccount(link.creatorId), amountCents: held, kind: 'refund' });
  }
  return closed;
}

/** One sweep over every expired link; safe to run from several processes at once. */
export function sweepExpiredLinks(db: Database, now = new Date()): Promise<number> {
  return db.transaction((em) => closeExpired(em, { now }));
}

async function findCreator(db: Database, username: string): Promise<User> {
  const creator = await db.manager.findOneBy(UserEntity, { username });
  if (!creator) throw notFound(LINK_NOT_FOUND);
  return creator;
}

/** The creator's newest link: 404 when they never made one, 410 when it is no longer open. */
async function currentLink(em: EntityManager, creatorId: string): Promise<Link> {
  const link = await em.findOne(LinkEntity, { where: { creatorId }, order: { createdAt: 'DESC' } });
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (!isOpen(link, new Date())) throw gone(LINK_GONE);
  return link;
}

/** Counts only: who visited and when stays on the server (see `LinkMetricsView`). */
async function metricsFor(db: Database, link: Link): Promise<LinkMetricsView> {
  const visitorCount = await db.manager.countBy(LinkVisitorEntity, { linkId: link.id });
  return { views: link.views, visitorCount };
}

/**
 * A visitor opens the creator's open link. The view counts at most once per visitor per hour
 * (links/views.ts); a repeat reads only, and writes nothing.
 */
async function viewLink(db: Database, views: ViewCounter, creatorId: string, viewer: User | undefined, visit: Visit): Promise<Link> {
  const now = new Date();
  const seen = await currentLink(db.manager, creatorId);
  if (await views.seenRecently(db.manager, seen.id, views.visitorKey(seen.id, viewer, visit), now)) return seen;
  if (!viewer && !(await views.admitAnonymous(seen.id, visit.address))) return seen;
  return db.transaction(async (em) => {
    const found = await currentLink(em, creatorId);
    if (!(await views.record(em, found.id, views.visitorKey(found.id, viewer, visit), viewer?.id ?? null, now))) return found;
    await em.increment(LinkEntity, { id: found.id }, 'views', 1);
    return { ...found, views: found.views + 1 };
  });
}

/**
 * Opens a creator's link page: counts the view at most once per visitor per hour (the user, else
 * the browser session, else the client address) and answers the link; its creator also gets the
 * metrics.
 */
export async function openLink(
  db: Database,
  viewer: User | undefined,
  creatorUsername: string,
  visit: Visit,
  views: ViewCounter,
): Promise<LinkView> {
  const creator = await findCreator(db, creatorUsername);
  const isOwner = viewer?.id === creator.id;
  const link = isOwner
    ? await db.transaction(async (em) => {
        // The creator keeps seeing their newest link and its metrics after it is used up or expired.
        const own = await em.findOne(LinkEntity, { where: { creatorId: creator.id }, order: { createdAt: 'DESC' } });
        if (!own) throw notFound(LINK_NOT_FOUND);
        return own;
      })
    : await viewLink(db, views, creator.id, viewer, visit);
  return presentLink(link, creator.username, isOwner ? await metricsFor(db, link) : undefined);
}

/** Whether the user already used the link (by id, or the creator's current link). */
export async function hasResponded(db: Database, user: User, query: { linkId?: string; creatorUsername?: string }): Promise<boolean> {
  let linkId = query.linkId;
  if (!linkId && query.creatorUsername) {
    const creator = await db.manager.findOneBy(UserEntity, { username: query.creatorUsername.toLowerCase() });
    if (!creator) return false;
    const link = await db.manager.findOne(LinkEntity, { where: { creatorId: creator.id }, order: { createdAt: 'DESC' } });
    linkId = link?.id;
  }
  if (!linkId) return false;
  return db.manager.existsBy(LinkResponseEntity, { linkId, responderId: user.id });
}

/**
 * Takes one use of an open link for `responder`, inside the transaction, and answers the use's
 * id: the remaining quantity drops by a conditional update (never below zero), the use is
 * recorded once per responder.
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
  const taken = await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ remainingQuantity: () => 'remaining_quantity - 1' })
    .where('id = :id AND status = :active AND remaining_quantity > 0 AND expires_at > :now', {
      id: link.id,
      active: 'active',
      now: dateParam(em, now),
    })
    .execute();
  if (taken.affected !== 1) throw gone(LINK_GONE);
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
  link.type === 'currency' ? `You received a gift of ${dollars(amountCents)}!` : `You received a gift: ${link.title ?? 'an item'}!`;

/** Uses a give link: the responder receives one use from escrow (currency) or the item is ordered for them. */
export async function acceptLink(
  deps: LinkDeps,
  responder: User,
  creatorUsername: string,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<AcceptLinkResponse>> {
  const creator = await findCreator(deps.db, creatorUsername);
  if (creator.id === responder.id) throw forbidden('You cannot use your own link.');
  const events: RealtimeEvent[] = [];
  const answer = await withIdempotency(deps.db, { key: idempotencyKey, userId: responder.id, scope: 'links.accept', input: creatorUsername }, async (em) => {
    const link = await currentLink(em, creator.id);
    if (link.giveOrReceive !== 'give') throw badRequest('This link asks for gifts: use Give instead.', 'not_a_give_link');
    const moved = await transfer(em, {
      from: escrowAccount(link.id),
      to: link.type === 'currency' ? userAccount(responder.id) : SYSTEM_MARKETPLACE,
      amountCents: link.amountCents,
      kind: link.type === 'currency' ? 'release' : 'purchase',
      actorUserId: responder.id,
      insufficient: gone(LINK_GONE),
    });
    await takeUse(em, link, responder.id, 'accept', link.amountCents, moved.transferId);
    const text = giftText(link, link.amountCents);
    const { conversation, message } = await recordGiftMessage(em, {
      giverId: creator.id,
      recipientId: responder.id,
      // The responder knows who made the give link: this gift is named.
      identity: 'named',
      text,
      gift: { title: link.title ?? text, giftType: link.type, img: link.photo },
    });
    const notification = await notify(em, {
      senderId: creator.id,
      receiverId: responder.id,
      amountCents: link.amountCents,
      type: link.type,
      giveOrReceive: 'give',
      linkOrWishlist: 'link',
      relatedPostId: link.id,
      message: text,
      itemPhoto: link.photo,
      itemTitle: link.type === 'item' ? link.title : null,
      itemId: link.itemId,
      conversationId: conversation.id,
    });
    events.push({ type: 'message', conversation, message }, { type: 'notification', notification });
    return { status: 200, body: { conversationId: conversation.id, newMessage: { _id: message.id, text: message.text } } };
  });
  return publishAfterCommit(deps, answer, events);
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
  if (link.creatorId === giver.id) throw badRequest(OWN_POST, 'own_post');
  if (link.giveOrReceive !== 'receive') throw badRequest('This link gives gifts: use Accept instead.', 'not_a_receive_link');
  const amountCents = link.type === 'item' ? link.amountCents : input.amountCents;
  if (amountCents === undefined) throw badRequest('Please enter a valid amount above $1', 'validation_failed');
  const events: RealtimeEvent[] = [];
  const answer = await withIdempotency(deps.db, { key: idempotencyKey, userId: giver.id, scope: 'links.give', input }, async (em) => {
    const fresh = await em.findOneByOrFail(LinkEntity, { id: link.id });
    if (!isOpen(fresh, new Date())) throw gone(LINK_GONE);
    const moved = await transfer(em, {
      from: userAccount(giver.id),
      to: fresh.type === 'currency' ? userAccount(fresh.creatorId) : SYSTEM_MARKETPLACE,
      amountCents,
      kind: fresh.type === 'currency' ? 'give' : 'purchase',
      actorUserId: giver.id,
      insufficient: insufficientFunds(),
    });
    const giveId = await takeUse(em, fresh, giver.id, 'give', amountCents, moved.transferId);
    const text = giftText(fresh, amountCents);
    const { conversation, message } = await recordGiftMessage(em, {
      giverId: giver.id,
      recipientId: fresh.creatorId,
      identity: 'anonymous',
      text,
      gift: { title: fresh.type === 'currency' ? dollars(amountCents) : (fresh.title ?? text), giftType: fresh.type, img: fresh.photo },
    });
    const notification = await notify(em, {
      senderId: giver.id,
      receiverId: fresh.creatorId,
      amountCents,
      type: fresh.type,
      giveOrReceive: 'receive',
      linkOrWishlist: 'link',
      relatedPostId: fresh.id,
      message: text,
      itemPhoto: fresh.photo,
      itemTitle: fresh.type === 'item' ? fresh.title : null,
      itemId: fresh.itemId,
      conversationId: conversation.id,
    });
    events.push({ type: 'message', conversation, message }, { type: 'notification', notification });
    return {
      status: 201,
      body: {
        give: { _id: giveId, type: fresh.type, amount: centsToDollars(amountCents), postId: fresh.id },
        conversationId: conversation.id,
      },
    };
  });
  return publishAfterCommit(deps, answer, events);
}

/** The second call of the old two-step give: confirms a give already made (nothing moves). */
export async function confirmGive(db: Database, giver: User, postId: string, giveId: string): Promise<{ ok: true }> {
  const response = await db.manager.findOneBy(LinkResponseEntity, { id: giveId, linkId: postId });
  if (!response || response.responderId !== giver.id || response.kind !== 'give')
    throw new AppError(404, 'not_found', 'Failed to update post and balance');
  return { ok: true };
}

/** The feed: open links, newest first, 25 a page. */
export async function listFeed(db: Database, page: number): Promise<LinkView[]> {
  const now = new Date();
  const rows = await db.manager
    .createQueryBuilder(LinkEntity, 'l')
    .innerJoin('User', 'u', 'u.id = l.creator_id')
    .addSelect('u.username', 'creator_username')
    .where('l.status = :active', { active: 'active' })
    .andWhere('l.expires_at > :now', { now: dateParam(db.manager, now) })
    .orderBy('l.created_at', 'DESC')
    .addOrderBy('l.id', 'DESC')
    .offset((page - 1) * LINK_PAGE_SIZE)
    .limit(LINK_PAGE_SIZE)
    .getRawAndEntities();
  return rows.entities.map((link, i) => presentLink(link, String(rows.raw[i].creator_username)));
}

/** A user's links, for themselves or a subscriber; anyone else is told to subscribe. */
export async function listProfileLinks(db: Database, viewer: User, username: string, page: number): Promise<LinkView[]> {
  const owner = await db.manager.findOneBy(UserEntity, { username });
  if (!owner) throw notFound('User not found');
  if (owner.id !== viewer.id && !viewer.isSubscribed) throw forbidden("Subscribe to see this user's link");
  const links = await db.manager.find(LinkEntity, {
    where: { creatorId: owner.id },
    order: { createdAt: 'DESC' },
    skip: (page - 1) * LINK_PAGE_SIZE,
    take: LINK_PAGE_SIZE,
  });
  return links.map((l) => presentLink(l, owner.username));
}

export async function countActiveLinks(db: Database, username: string): Promise<number> {
  const owner = await db.manager.findOneBy(UserEntity, { username });
  if (!owner) throw notFound('User not found');
  const links = await db.manager.findBy(LinkEntity, { creatorId: owner.id, status: 'active' });
  const now = new Date();
  return links.filter((l) => isOpen(l, now)).length;
}

