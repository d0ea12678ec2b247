import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/** One browser's push subscription for one user: where to send and the keys to encrypt for it. */
export interface PushSubscriptionRow {
  id: string;
  userId: string;
  /** The session that subscribed it: the device ends with that session. Null for rows from before sessions were recorded. */
  sessionId: string | null;
  /** The push service's URL for this browser; unique: a browser that subscribes again updates its row. */
  endpoint: string;
  /** The browser's P-256 public key and auth secret (base64url), for aes128gcm (RFC 8291). */
  p256dh: string;
  auth: string;
  /** 'Chrome on macOS', from the User-Agent when it subscribed: what Settings shows. */
  device: string;
  createdAt: Date;
}

export const PushSubscriptionEntity = new EntitySchema<PushSubscriptionRow>({
  name: 'PushSubscription',
  tableName: 'push_subscriptions',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    sessionId: { ...refColumn(true), name: 'session_id' },
    endpoint: { type: 'varchar', length: 2048, unique: true },
    p256dh: { type: 'varchar', length: 100 },
    auth: { type: 'varchar', length: 32 },
    device: { type: 'varchar', length: 100 },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
