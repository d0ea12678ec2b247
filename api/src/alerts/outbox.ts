import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AlertKind } from '../../contract/alerts.js';
import { AlertEntity, type Alert } from './entity.js';
import { insertMessageAlertsSqlite } from './store.js';
import type { AlertPayload } from './rules.js';

export interface NewAlert {
  userId: string;
  kind: AlertKind;
  conversationId?: string | null;
  payload?: AlertPayload;
  /** A stable id makes the alert once only (a message's id; a period's renewal reminder); else random. */
  id?: string;
  createdAt?: Date;
}

/**
 * Puts an alert in the outbox inside `em`'s transaction: it exists exactly when the event it tells
 * about committed. An alert with an id already there is not written again.
 */
export async function enqueueAlert(em: EntityManager, alert: NewAlert): Promise<void> {
  const row: Alert = {
    id: alert.id ?? crypto.randomUUID(),
    userId: alert.userId,
    kind: alert.kind,
    conversationId: alert.conversationId ?? null,
    payload: JSON.stringify(alert.payload ?? {}),
    createdAt: alert.createdAt ?? new Date(),
    emailState: 'pending',
    emailAttempts: 0,
    emailClaimedUntil: null,
    emailBatch: null,
    emailSentAt: null,
    pushState: 'pending',
    pushAttempts: 0,
    pushClaimedUntil: null,
    pushBatch: null,
    pushSentAt: null,
  };
  await em.createQueryBuilder().insert().into(AlertEntity).values(row).orIgnore().execute();
}

/** A gift's or a message's alert to the other member: keyed by the message, so one per message. */
export const messageAlert = (
  kind: 'gift' | 'message',
  message: { id: string; conversationId: string; createdAt: Date },
  recipientId: string,
): NewAlert => ({
  id: message.id,
  userId: recipientId,
  kind,
  conversationId: message.conversationId,
  payload: { messageId: message.id },
  createdAt: message.createdAt,
});

/** A stable id (uuid-shaped) for an alert that must be made once per `key` (a subscription's period). */
export function onceId(key: string): string {
  const h = crypto.createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** SQLite: the alerts of a batch of normal messages just written (PostgreSQL writes them in its statement: store.ts). */
export function enqueueMessageAlerts<T extends { id: string; conversationId: string; createdAt: Date; senderId: string }>(
  em: EntityManager,
  batch: readonly { recipientId: string }[],
  written: (T | 'blocked')[],
): (T | 'blocked')[] {
  const alerts = written.flatMap((m, i) =>
    m === 'blocked' || m.senderId === batch[i].recipientId ? [] : [messageAlert('message', m, batch[i].recipientId)],
  );
  insertMessageAlertsSqlite(
    em,
    alerts.map((a) => ({ ...a, payload: JSON.stringify(a.payload) })),
  );
  return written;
}
