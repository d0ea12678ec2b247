import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';
import type { OrderStatus } from '../../contract/orders.js';

/** A user's shipping address: one per user, theirs alone (never presented to anyone else). */
export interface Address {
  userId: string;
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  createdAt: Date;
  updatedAt: Date;
}

export const AddressEntity = new EntitySchema<Address>({
  name: 'Address',
  tableName: 'addresses',
  columns: {
    userId: { type: 'varchar', length: 36, primary: true, name: 'user_id' },
    name: { type: 'varchar', length: 100 },
    line1: { type: 'varchar', length: 100 },
    line2: { type: 'varchar', length: 100, nullable: true },
    city: { type: 'varchar', length: 100 },
    region: { type: 'varchar', length: 100, nullable: true },
    postalCode: { type: 'varchar', length: 16, nullable: true, name: 'postal_code' },
    country: { type: 'varchar', length: 2 },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
});

/**
 * What an item gift became: the marketplace order for its recipient. Made in the gift's own
 * transaction (commands/deliver-gift.ts); moved on by conditional updates only
 * (`… WHERE id = ? AND status = ?`), so several processes may sweep at once.
 */
export interface Order {
  id: string;
  recipientId: string;
  /** Never presented to the recipient (orders/presenter.ts). */
  giverId: string;
  itemId: string | null;
  itemTitle: string;
  itemPhoto: string | null;
  amountCents: number;
  /** The ledger transfer that paid the marketplace. */
  transferId: string;
  /** The ledger transfer that gave the money back to the giver, once refunded. */
  refundTransferId: string | null;
  status: OrderStatus;
  /** What the gift came through: a link (give or receive) or a wishlist. */
  source: 'link' | 'wishlist';
  /** The recipient's thread where the gift arrived. */
  conversationId: string | null;
  /**
   * The address the order ships to, copied when it was placed (JSON of the address fields), so a
   * later edit does not move a parcel already on its way. Never presented to the giver.
   */
  shipTo: string | null;
  createdAt: Date;
  updatedAt: Date;
  placedAt: Date | null;
  shippedAt: Date | null;
  deliveredAt: Date | null;
  refundedAt: Date | null;
}

export const OrderEntity = new EntitySchema<Order>({
  name: 'Order',
  tableName: 'orders',
  columns: {
    id: idColumn,
    recipientId: { ...refColumn(), name: 'recipient_id' },
    giverId: { ...refColumn(), name: 'giver_id' },
    itemId: { type: 'varchar', length: 100, nullable: true, name: 'item_id' },
    itemTitle: { type: 'varchar', length: 255, name: 'item_title' },
    itemPhoto: { type: 'varchar', length: 2048, nullable: true, name: 'item_photo' },
    amountCents: centsColumn({ name: 'amount_cents' }),
    transferId: { ...refColumn(), name: 'transfer_id' },
    refundTransferId: { ...refColumn(true), name: 'refund_transfer_id' },
    status: { type: 'varchar', length: 20 },
    source: { type: 'varchar', length: 16 },
    conversationId: { ...refColumn(true), name: 'conversation_id' },
    shipTo: { type: 'text', nullable: true, name: 'ship_to' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
    placedAt: { ...dateColumn(true), name: 'placed_at' },
    shippedAt: { ...dateColumn(true), name: 'shipped_at' },
    deliveredAt: { ...dateColumn(true), name: 'delivered_at' },
    refundedAt: { ...dateColumn(true), name: 'refunded_at' },
  },
});
