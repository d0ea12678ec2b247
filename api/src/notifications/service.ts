import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { NotificationEntity, type Notification } from './entity.js';

export type NewNotification = Omit<Notification, 'id' | 'read' | 'createdAt'>;

/** Notifications are made by the server, inside the transaction of what they tell about. */
export async function notify(em: EntityManager, input: NewNotification): Promise<Notification> {
  const notification: Notification = { ...input, id: crypto.randomUUID(), read: false, createdAt: new Date() };
  await em.insert(NotificationEntity, notification);
  return notification;
}

/** Notifications the user has not read yet. */
export function unreadNotificationCount(db: Database, userId: string): Promise<number> {
  return db.manager.countBy(NotificationEntity, { receiverId: userId, read: false });
}
