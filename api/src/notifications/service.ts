import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { afterCommit, type Publisher } from '../realtime/publisher.js';
import type { AlertKind } from '../../contract/alerts.js';
import { NotificationEntity, type Notification } from './entity.js';
import { insertNotification } from './store.js';
import { appendedRowId } from '../db/ids.js';

export type NewNotification = Omit<Notification, 'id' | 'read' | 'createdAt'>;

/** A notification about to be made: its id and time are set here. */
export const newNotification = (input: NewNotification): Notification => ({
  ...input,
  id: appendedRowId(),
  read: false,
  createdAt: new Date(),
});

/**
 * Notifications are made by the server, inside the transaction of what they tell about; the
 * receiver's sockets hear of it once that commits (with the alert kind it tells, if any, for the
 * hidden tab's notice).
 */
export async function notify(em: EntityManager, input: NewNotification, alert?: AlertKind): Promise<Notification> {
  const notification = newNotification(input);
  await insertNotification(em, notification);
  noticeMade(notification, alert);
  return notification;
}

/** A notification written by a store of its own (a gift's, with its message): told as `notify` tells one. */
export function noticeMade(notification: Notification, alert?: AlertKind): void {
  afterCommit({ type: 'notification', notification, ...(alert ? { alert } : {}) });
}

/** The user's notifications, newest first (the latest 200). */
export function listNotifications(db: Database, userId: string): Promise<Notification[]> {
  return db.manager.find(NotificationEntity, { where: { receiverId: userId }, order: { createdAt: 'DESC' }, take: 200 });
}

/** Marks read, in `em`'s transaction, the user's notifications pointing at a thread they opened. Answers how many changed. */
export async function markConversationNotificationsRead(em: EntityManager, userId: string, conversationId: string): Promise<number> {
  const result = await em.update(NotificationEntity, { receiverId: userId, conversationId, read: false }, { read: true });
  return result.affected ?? 0;
}

/** Marks all of the user's notifications read; every tab of theirs then lowers its badge. Answers how many changed. */
export async function markAllRead(deps: { db: Database; realtime: Publisher }, userId: string): Promise<number> {
  const result = await deps.db.transaction((em) => em.update(NotificationEntity, { receiverId: userId, read: false }, { read: true }));
  const marked = result.affected ?? 0;
  if (marked > 0) deps.realtime.publish([{ type: 'unread', userId }]);
  return marked;
}
