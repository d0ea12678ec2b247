import { centsToDollars } from '../../contract/money.js';
import { ORDER_ADDRESS_WAIT_DAYS } from '../../contract/limits.js';
import type { AddressView, GiverOrderStatus, OrderStatus, ReceivedOrderView, SentOrderView } from '../../contract/orders.js';
import type { User } from '../users/entity.js';
import type { Address, Order } from './entity.js';
import { canSeeShipTo, roleIn } from './policy.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The owner's own address; the only presenter of one (policy.ts: `canSeeAddress`). */
export const presentAddress = (a: Address): AddressView => ({
  name: a.name,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
  updatedAt: a.updatedAt.toISOString(),
});

/** When a waiting order goes back to its giver. */
export const addressDueAt = (o: Pick<Order, 'createdAt'>): Date => new Date(o.createdAt.getTime() + ORDER_ADDRESS_WAIT_DAYS * DAY_MS);

/** Fields copied one by one: neither side's view carries the giver's id or the address. */
function base(o: Order) {
  return {
    _id: o.id,
    item: { itemId: o.itemId, title: o.itemTitle, photo: o.itemPhoto },
    amount: centsToDollars(o.amountCents),
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    placedAt: iso(o.placedAt),
    shippedAt: iso(o.shippedAt),
    deliveredAt: iso(o.deliveredAt),
    refundedAt: iso(o.refundedAt),
  };
}

function shipTo(viewer: Pick<User, 'id'>, o: Order): ReceivedOrderView['shipTo'] {
  if (!o.shipTo || !canSeeShipTo(viewer, o)) return null;
  const parsed = JSON.parse(o.shipTo) as Pick<Address, 'city' | 'country'>;
  return { city: parsed.city, country: parsed.country };
}

/** An order as its recipient sees it: the item and the status, never the giver. */
const presentReceivedOrder = (viewer: Pick<User, 'id'>, o: Order): ReceivedOrderView => ({
  ...base(o),
  role: 'recipient',
  status: o.status,
  addressDueAt: o.status === 'awaiting_address' ? addressDueAt(o).toISOString() : null,
  shipTo: shipTo(viewer, o),
});

/** The giver's status: a wait for the recipient's address reads as any order being processed. */
const giverStatus = (status: OrderStatus): GiverOrderStatus => (status === 'awaiting_address' ? 'processing' : status);

/** An order as its giver sees it: the item and the status, never the address nor whether there is one. */
const presentSentOrder = (o: Order): SentOrderView => ({
  ...base(o),
  role: 'giver',
  status: giverStatus(o.status),
  conversationId: o.conversationId,
});

/** The order as `viewer` may see it (policy.ts: `roleIn`), or null when it is none of theirs. */
export function presentOrderFor(viewer: Pick<User, 'id'>, o: Order): ReceivedOrderView | SentOrderView | null {
  switch (roleIn(viewer, o)) {
    case 'recipient':
      return presentReceivedOrder(viewer, o);
    case 'giver':
      return presentSentOrder(o);
    default:
      return null;
  }
}
