import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { Catalog, OrderSchedule } from '../catalog/catalog.js';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import type { Deps } from '../deps.js';
import { formatCents } from '../../contract/money.js';
import { SYSTEM_MARKETPLACE, SYSTEM_UNCLAIMED, transfer, userAccount } from '../money/ledger.js';
import { NotificationEntity, type Notification } from '../notifications/entity.js';
import { notify } from '../notifications/service.js';
import { UserEntity } from '../users/entity.js';
import { checkPostalCode } from './address.js';
import { AddressEntity, OrderEntity, type Address, type Order } from './entity.js';
import { addressDueAt, presentOrderFor } from './presenter.js';
import type { ReceivedOrderView, SentOrderView } from '../../contract/orders.js';
import { sandboxMarketplace } from './sandbox.js';
import { ORDER_ADDRESS_WAIT_DAYS } from '../../contract/limits.js';
import { addressAsk, orderDeliveredToGiver, orderMovedToRecipient, orderRefunded } from '../../contract/texts.js';
import { type AddressInput, type OrdersResponse } from '../../contract/orders.js';
import { enqueueAlert } from '../alerts/outbox.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const LIST_LIMIT = 100;
const SWEEP_BATCH = 200;

export interface OrderDeps {
  db: Database;
  catalog: Catalog;
  /** ORDER_SHIP_AFTER_MINUTES and ORDER_DELIVER_AFTER_MINUTES. */
  schedule: OrderSchedule;
  log?: Logger;
}

/** What the order services need, from the app's dependencies. */
export const orderDeps = (deps: Deps): OrderDeps => ({
  db: deps.db,
  catalog: deps.catalog,
  schedule: { shipAfterMinutes: deps.config.orderShipAfterMinutes, deliverAfterMinutes: deps.config.orderDeliverAfterMinutes },
  log: deps.log,
});

/** The oldest creation time a waiting order may have and still be placed (older ones go back to the giver). */
const waitStart = (now: Date) => new Date(now.getTime() - ORDER_ADDRESS_WAIT_DAYS * DAY_MS);

/** The copy of the address an order ships to. */
const shipToOf = (a: Address): string =>
  JSON.stringify({
    name: a.name,
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    region: a.region,
    postalCode: a.postalCode,
    country: a.country,
  });

// ---- addresses ----------------------------------------------------------------------------------

/** The user's own address, or null. */
export function getAddress(db: Database, userId: string): Promise<Address | null> {
  return db.manager.findOneBy(AddressEntity, { userId });
}

/**
 * Saves the user's address (checked per country) and, in the same transaction, places every
 * order that was waiting for it and is still within its 14 days. Answers the address and how
 * many orders it placed.
 */
export async function saveAddress(
  db: Database,
  userId: string,
  input: AddressInput,
  now = new Date(),
): Promise<{ address: Address; placedOrders: number }> {
  checkPostalCode(input);
  return db.transaction(async (em) => {
    const existing = await em.findOneBy(AddressEntity, { userId });
    const address: Address = {
      userId,
      name: input.name,
      line1: input.line1,
      line2: input.line2,
      city: input.city,
      region: input.region,
      postalCode: input.postalCode,
      country: input.country,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    await em.upsert(AddressEntity, { ...address }, ['userId']);
    const placedOrders = await placeWaitingOrders(em, address, now);
    return { address, placedOrders };
  });
}

/** Removes the user's address; orders already placed keep the copy they ship to. Answers whether there was one. */
export async function deleteAddress(db: Database, userId: string): Promise<boolean> {
  const result = await db.transaction((em) => em.delete(AddressEntity, { userId }));
  return (result.affected ?? 0) > 0;
}

/** Places the recipient's waiting orders (a conditional update: each is placed once). */
async function placeWaitingOrders(em: EntityManager, address: Address, now: Date): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(OrderEntity)
    .set({ status: 'placed', placedAt: now, updatedAt: now, shipTo: shipToOf(address) })
    .where('recipient_id = :recipientId AND status = :waiting', { recipientId: address.userId, waiting: 'awaiting_address' })
    .andWhere('created_at > :start', { start: dateParam(em, waitStart(now)) })
    .execute();
  return result.affected ?? 0;
}

// ---- orders -------------------------------------------------------------------------------------

export interface NewGiftOrder {
  giverId: string;
  recipientId: string;
  item: { itemId: string | null; title: string; photo: string | null };
  amountCents: number;
  transferId: string;
  conversationId: string;
  source: Order['source'];
  /** When the recipient was told of the gift: the ask is dated a millisecond before, so it lists right under it. */
  notifiedAt: Date;
}

/**
 * Makes the order an item gift became, inside the gift's transaction (commands/deliver-gift.ts).
 * With an address it is placed at once; without one it waits, and the recipient is asked for an
 * address in a notification of its own (which names no giver). Answers the order and that
 * notification, to publish after the commit.
 */
export async function createGiftOrder(
  em: EntityManager,
  input: NewGiftOrder,
  now = new Date(),
): Promise<{ order: Order; ask: Notification | null }> {
  const address = await em.findOneBy(AddressEntity, { userId: input.recipientId });
  const order: Order = {
    id: crypto.randomUUID(),
    recipientId: input.recipientId,
    giverId: input.giverId,
    itemId: input.item.itemId,
    itemTitle: input.item.title,
    itemPhoto: input.item.photo,
    amountCents: input.amountCents,
    transferId: input.transferId,
    refundTransferId: null,
    status: address ? 'placed' : 'awaiting_address',
    source: input.source,
    conversationId: input.conversationId,
    shipTo: address ? shipToOf(address) : null,
    createdAt: now,
    updatedAt: now,
    placedAt: address ? now : null,
    shippedAt: null,
    deliveredAt: null,
    refundedAt: null,
  };
  await em.insert(OrderEntity, { ...order });
  if (address) return { order, ask: null };
  const ask: Notification = {
    id: crypto.randomUUID(),
    // Asked by Giftlink, not by the giver: no sender, no thread.
    senderId: null,
    receiverId: input.recipientId,
    amountCents: 0,
    type: 'order',
    giveOrReceive: 'receive',
    linkOrWishlist: input.source,
    relatedPostId: order.id,
    message: addressAsk(input.item.title),
    itemPhoto: input.item.photo,
    itemTitle: input.item.title,
    itemId: input.item.itemId,
    conversationId: null,
    read: false,
    createdAt: new Date(input.notifiedAt.getTime() - 1),
  };
  await em.insert(NotificationEntity, { ...ask });
  await enqueueAlert(em, { userId: input.recipientId, kind: 'order_address', payload: { orderId: order.id } });
  return { order, ask };
}

/** The caller's received and sent orders, newest first, each side through its own presenter. */
export async function listOrders(db: Database, userId: string): Promise<OrdersResponse> {
  const [received, sent] = await Promise.all([
    db.manager.find(OrderEntity, { where: { recipientId: userId }, order: { createdAt: 'DESC' }, take: LIST_LIMIT }),
    db.manager.find(OrderEntity, { where: { giverId: userId }, order: { createdAt: 'DESC' }, take: LIST_LIMIT }),
  ]);
  const viewer = { id: userId };
  return {
    received: received.map((o) => presentOrderFor(viewer, o)).filter((o): o is ReceivedOrderView => o?.role === 'recipient'),
    sent: sent.map((o) => presentOrderFor(viewer, o)).filter((o): o is SentOrderView => o?.role === 'giver'),
  };
}

// ---- the sweep ----------------------------------------------------------------------------------

/**
 * Gives back what waiting orders cost once their 14 days are over: each order's status flips to
 * `refunded` by a conditional update first, so of two racing sweeps only one refunds it, and the
 * money goes from the marketplace back to the giver's balance in the same transaction. The giver
 * is told (the item and the amount, which they knew); the recipient is told nothing about whom.
 * A giver who has closed their account is refunded into `system:unclaimed` instead, with the order
 * as its reference: the recipient's side of it is the same either way.
 * One short transaction per order, so a backlog never holds SQLite's single writer for long.
 */
export async function refundUnaddressed(deps: Pick<OrderDeps, 'db'>, now = new Date()): Promise<number> {
  const reader = deps.db.manager;
  const due = await reader
    .createQueryBuilder(OrderEntity, 'o')
    .where('o.status = :waiting', { waiting: 'awaiting_address' })
    .andWhere('o.created_at <= :start', { start: dateParam(reader, waitStart(now)) })
    .orderBy('o.created_at', 'ASC')
    .limit(SWEEP_BATCH)
    .getMany();
  let count = 0;
  for (const order of due) {
    if (addressDueAt(order) > now) continue;
    const notification = await deps.db.transaction(async (em) => {
      const flipped = await em
        .createQueryBuilder()
        .update(OrderEntity)
        .set({ status: 'refunded', refundedAt: now, updatedAt: now })
        .where('id = :id AND status = :waiting', { id: order.id, waiting: 'awaiting_address' })
        .execute();
      if (flipped.affected !== 1) return null;
      // A giver who closed their account can no longer be credited: the refund is kept for them.
      const giver = await em.findOne(UserEntity, { where: { id: order.giverId }, select: { id: true, closedAt: true } });
      const closed = !giver || giver.closedAt !== null;
      const paid = await transfer(em, {
        from: SYSTEM_MARKETPLACE,
        to: closed ? SYSTEM_UNCLAIMED : userAccount(order.giverId),
        amountCents: order.amountCents,
        kind: 'refund',
        actorUserId: null,
        reference: closed ? `order:${order.id}` : null,
      });
      await em.update(OrderEntity, { id: order.id }, { refundTransferId: paid.transferId });
      if (closed) return 'kept' as const;
      return notify(em, {
        senderId: null,
        receiverId: order.giverId,
        amountCents: order.amountCents,
        type: 'order',
        giveOrReceive: 'give',
        linkOrWishlist: order.source,
        relatedPostId: order.id,
        message: orderRefunded(order.itemTitle, formatCents(order.amountCents)),
        itemPhoto: order.itemPhoto,
        itemTitle: order.itemTitle,
        itemId: order.itemId,
        conversationId: null,
      });
    });
    if (!notification) continue;
    count += 1;
  }
  return count;
}

/**
 * Tells the recipient that their gift shipped and that it arrived, and the giver that it arrived;
 * from Giftlink, naming the item only (never the giver to the recipient).
 */
async function tellMoved(em: EntityManager, order: Order, to: 'shipped' | 'delivered'): Promise<void> {
  const about = {
    senderId: null,
    amountCents: order.amountCents,
    type: 'order' as const,
    linkOrWishlist: order.source,
    relatedPostId: order.id,
    itemPhoto: order.itemPhoto,
    itemTitle: order.itemTitle,
    itemId: order.itemId,
    conversationId: null,
  };
  const kind = `order_${to}` as const;
  await notify(
    em,
    { ...about, receiverId: order.recipientId, giveOrReceive: 'receive', message: orderMovedToRecipient(order.itemTitle, to) },
    kind,
  );
  await enqueueAlert(em, { userId: order.recipientId, kind, payload: { orderId: order.id } });
  if (to === 'delivered') {
    await notify(
      em,
      { ...about, receiverId: order.giverId, giveOrReceive: 'give', message: orderDeliveredToGiver(order.itemTitle) },
      'order_delivered',
    );
    await enqueueAlert(em, { userId: order.giverId, kind: 'order_delivered', payload: { orderId: order.id } });
  }
}

/**
 * One sweep over every order: waiting ones past their 14 days go back to their givers, and the
 * catalogue's marketplace moves placed and shipped ones on. Safe to run from several processes.
 */
export async function sweepOrders(deps: OrderDeps, now = new Date()): Promise<{ refunded: number; shipped: number; delivered: number }> {
  const refunded = await refundUnaddressed(deps, now);
  const marketplace = deps.catalog.orders ?? sandboxMarketplace;
  const moved = await marketplace.advance(deps.db, now, deps.schedule, (em, order, to) => tellMoved(em, order, to));
  return { refunded, ...moved };
}
