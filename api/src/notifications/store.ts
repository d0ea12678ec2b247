import type { EntityManager } from 'typeorm';
import { run, sql, type SqlValue } from '../db/sql.js';
import type { Notification } from './entity.js';

/** The columns a new notification sets, in the order of `notificationValues`, then `conversation_id`. */
export const NOTIFICATION_COLUMNS =
  'id, sender_id, receiver_id, amount_cents, type, give_or_receive, link_or_wishlist, related_post_id, ' +
  'message, item_photo, item_title, item_id, read, created_at, conversation_id';
const INSERT_NOTIFICATION = sql(
  `INSERT INTO notifications (${NOTIFICATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
);

/**
 * The values of NOTIFICATION_COLUMNS but the last (`conversation_id`), for a statement that makes
 * the notification along with the conversation it points to (conversations/gift-store.ts).
 */
export const notificationValues = (n: Notification): SqlValue[] => [
  n.id,
  n.senderId,
  n.receiverId,
  n.amountCents,
  n.type,
  n.giveOrReceive,
  n.linkOrWishlist,
  n.relatedPostId,
  n.message,
  n.itemPhoto,
  n.itemTitle,
  n.itemId,
  n.read,
  n.createdAt,
];

/** Inserts the notification in `em`'s transaction. A prepared statement: every gift makes one. */
export async function insertNotification(em: EntityManager, notification: Notification): Promise<void> {
  // Every column is set here: nothing to read back.
  await run(em, INSERT_NOTIFICATION, [...notificationValues(notification), notification.conversationId]);
}
