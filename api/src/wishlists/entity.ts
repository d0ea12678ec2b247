import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';
import type { ShippingCostType } from '../../contract/catalog.js';

/** The most items a wishlist holds (PRODUCT.md §9), purchased ones included, archived ('Received') ones not. */
export const WISHLIST_MAX_ITEMS = 7;

/**
 * One wishlist per user, made on its first save. Its row is also the wishlist's lock: every
 * edit and every purchase first updates it, so on PostgreSQL they take turns per wishlist.
 */
export interface Wishlist {
  ownerId: string;
  createdAt: Date;
  updatedAt: Date;
}

export const WishlistEntity = new EntitySchema<Wishlist>({
  name: 'Wishlist',
  tableName: 'wishlists',
  columns: {
    ownerId: { type: 'varchar', length: 36, primary: true, name: 'owner_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
});

/**
 * One item of a wishlist: a copy of the catalogue product taken on the server when the owner
 * saved it (prices never come from a request body).
 */
export interface WishlistItem {
  id: string;
  ownerId: string;
  /** Sort key of the list; may have gaps (purchased items keep theirs across edits). */
  position: number;
  /** The catalogue's product id. */
  itemId: string;
  name: string;
  title: string;
  priceCents: number;
  /** What a purchase charges for shipping: the fixed cost, or the catalogue's estimate when CALCULATED. */
  shippingCents: number | null;
  shippingType: ShippingCostType;
  condition: string;
  description: string;
  imageUrl: string;
  /** JSON array of image URLs, the main image first. */
  allImages: string;
  purchased: boolean;
  purchasedAt: Date | null;
  /** Who bought it. Never presented to the owner (nor to anyone else). */
  purchaserId: string | null;
  /** The ledger transfer that paid for it. */
  transferId: string | null;
  /**
   * When the owner moved this purchased item to their 'Received' section; null while it is on the
   * list. An archived item keeps no slot and does not count toward the seven.
   */
  archivedAt: Date | null;
  createdAt: Date;
}

export const WishlistItemEntity = new EntitySchema<WishlistItem>({
  name: 'WishlistItem',
  tableName: 'wishlist_items',
  columns: {
    id: idColumn,
    ownerId: { ...refColumn(), name: 'owner_id' },
    position: { type: 'integer', default: 0 },
    itemId: { type: 'varchar', length: 100, name: 'item_id' },
    name: { type: 'varchar', length: 255 },
    title: { type: 'varchar', length: 255 },
    priceCents: centsColumn({ name: 'price_cents' }),
    shippingCents: centsColumn({ name: 'shipping_cents', nullable: true, default: undefined }),
    shippingType: { type: 'varchar', length: 16, name: 'shipping_type' },
    condition: { type: 'varchar', length: 64, default: '' },
    description: { type: 'text', default: '' },
    imageUrl: { type: 'varchar', length: 2048, name: 'image_url' },
    allImages: { type: 'text', name: 'all_images' },
    purchased: { type: 'boolean', default: false },
    purchasedAt: { ...dateColumn(true), name: 'purchased_at' },
    purchaserId: { ...refColumn(true), name: 'purchaser_id' },
    transferId: { ...refColumn(true), name: 'transfer_id' },
    archivedAt: { ...dateColumn(true), name: 'archived_at' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
