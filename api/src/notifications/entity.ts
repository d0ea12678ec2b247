import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';

/** Made by the server when a gift, link use or purchase happens. The sender is never presented. */
export interface Notification {
  id: string;
  senderId: string | null;
  receiverId: string;
  amountCents: number;
  /**
   * `order`: about an item order (orders/service.ts); `subscription`: about the weekly subscription
   * (a renewal that could not be paid, subscriptions/renewals.ts). Both from Giftlink itself: no sender, no thread.
   */
  type: 'currency' | 'item' | 'wishlist' | 'order' | 'subscription';
  giveOrReceive: 'give' | 'receive' | null;
  linkOrWishlist: 'link' | 'wishlist';
  relatedPostId: string | null;
  message: string;
  itemPhoto: string | null;
  itemTitle: string | null;
  itemId: string | null;
  conversationId: string | null;
  read: boolean;
  createdAt: Date;
}

export const NotificationEntity = new EntitySchema<Notification>({
  name: 'Notification',
  tableName: 'notifications',
  columns: {
    id: idColumn,
    senderId: { ...refColumn(true), name: 'sender_id' },
    receiverId: { ...refColumn(), name: 'receiver_id' },
    amountCents: centsColumn({ name: 'amount_cents' }),
    type: { type: 'varchar', length: 16 },
    giveOrReceive: { type: 'varchar', length: 16, nullable: true, name: 'give_or_receive' },
    linkOrWishlist: { type: 'varchar', length: 16, name: 'link_or_wishlist' },
    relatedPostId: { ...refColumn(true), name: 'related_post_id' },
    message: { type: 'varchar', length: 500 },
    itemPhoto: { type: 'varchar', length: 2048, nullable: true, name: 'item_photo' },
    itemTitle: { type: 'varchar', length: 255, nullable: true, name: 'item_title' },
    itemId: { type: 'varchar', length: 100, nullable: true, name: 'item_id' },
    conversationId: { ...refColumn(true), name: 'conversation_id' },
    read: { type: 'boolean', default: false },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
