import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { run, sql, type SqlValue } from '../db/sql.js';
import type { Publisher } from '../realtime/publisher.js';
import { NotificationEntity, type Notification } from './entity.js';
import { appendedRowId } from '../db/ids.js';

export type NewNotification = Omit<Notification, 'id' | 'read' | 'createdAt'>;

/** The columns a new notification sets, in the order of `notificationValues`, then `conversation_id`. */
export const NOTIFICATION_COLUMNS =
  'id, sender_id, receiver_id, amount_cents, type, give_or_receive, link_or_wishlist, related_post_id, ' +
  'message, item_photo, item_title, item_id, read, created_at, conversation_id';
const INSERT_NOTIFICATION = sql(
  `INSERT INTO notifications (${NOTIFICATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
);

/** A notification about to be made: its id and time are set here. */
export const newNotification = (input: NewNotification): Notification => ({
  ...input,
  id: appendedRowId(),
  read: false,
  createdAt: new Date(),
});

/**
 * The values of NOTIFICATION_COLUMNS but the last (`conversation_id`), for a statement that makes
 * the notification along with the conversation it points to (conversations/gift-message.ts).
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

/** Notifications are made by the server, inside the transaction of what they tell about. */
export async function notify(em: EntityManager, input: NewNotification): Promise<Notification> {
  const notification = newNotification(input);
  // Every column is set here: nothing to read back. A prepared statement: every gift makes one (issue 15).
  await run(em, INSERT_NOTIFICATION, [...notificationValues(notification), notification.conversationId]);
  return notification;
}

/** The user's notifications, newest first (the latest 200). */
export function listNotifications(db: Database, userId: string): Promise<Notification[]> {
  return db.manager.find(NotificationEntity, { where: { receiverId: userId }, order: { createdAt: 'DESC' }, take: 200 });
}

/** Marks all of the user's notifications read; every tab of theirs then lowers its badge. Answers how many changed. */
export async function markAllRead(deps: { db: Database; realtime: Publisher }, userId: string): Promise<number> {
  const result = await deps.db.transaction((em) => em.update(NotificationEntity, { receiverId: userId, read: false }, { read: true }));
  const marked = result.affected ?? 0;
  if (marked > 0) deps.realtime.publish([{ type: 'unread', userId }]);
  return marked;
}

/** Notifications the user has not read yet. */
export function unreadNotificationCount(db: Database, userId: string): Promise<number> {
  return db.manager.countBy(NotificationEntity, { receiverId: userId, read: false });
}
