import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { NotificationEntity, type Notification } from './entity.js';

export type NewNotification = Omit<Notification, 'id' | 'read' | 'createdAt'>;

/** Notifications are made by the server, inside the transaction of what they tell about. */
export async function notify(em: EntityManager, input: NewNotification): Promise<Notification> {
  const notification: Notification = { ...input, id: crypto.randomUUID(), read: false, createdAt: new Date() };
  await em.insert(NotificationEntity, notification);
  return notification;
}
