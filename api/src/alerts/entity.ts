import { EntitySchema } from 'typeorm';
import type { AlertChannel, AlertKind } from '../../contract/alerts.js';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/** Where one alert stands on one channel: waiting, sent, or left unsent on purpose (read, turned off, closed account). */
export type DeliveryState = 'pending' | 'sent' | 'skipped';

/**
 * One alert in the outbox, written in the transaction of the event it tells about (outbox.ts);
 * the alert jobs (job.ts) deliver it, one per channel. A conversation's alerts carry their message's id as theirs.
 */
export interface Alert {
  id: string;
  userId: string;
  kind: AlertKind;
  conversationId: string | null;
  /** JSON of AlertPayload: only what the rule needs to render the alert. */
  payload: string;
  createdAt: Date;
  emailState: DeliveryState;
  emailAttempts: number;
  /** A claim on the email: another run leaves the row alone until then. */
  emailClaimedUntil: Date | null;
  /** The batch the email went (or goes) out in: its Message-ID, kept across a crash and a resend. */
  emailBatch: string | null;
  emailSentAt: Date | null;
  /** The same, for the push (push/channel.ts): each channel keeps its own state on the row. */
  pushState: DeliveryState;
  pushAttempts: number;
  pushClaimedUntil: Date | null;
  pushBatch: string | null;
  pushSentAt: Date | null;
}

export const AlertEntity = new EntitySchema<Alert>({
  name: 'Alert',
  tableName: 'alerts',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    kind: { type: 'varchar', length: 32 },
    conversationId: { ...refColumn(true), name: 'conversation_id' },
    payload: { type: 'varchar', length: 2000 },
    createdAt: { ...dateColumn(), name: 'created_at' },
    emailState: { type: 'varchar', length: 16, name: 'email_state' },
    emailAttempts: { type: 'int', default: 0, name: 'email_attempts' },
    emailClaimedUntil: { ...dateColumn(true), name: 'email_claimed_until' },
    emailBatch: { ...refColumn(true), name: 'email_batch' },
    emailSentAt: { ...dateColumn(true), name: 'email_sent_at' },
    pushState: { type: 'varchar', length: 16, name: 'push_state', default: 'pending' },
    pushAttempts: { type: 'int', default: 0, name: 'push_attempts' },
    pushClaimedUntil: { ...dateColumn(true), name: 'push_claimed_until' },
    pushBatch: { ...refColumn(true), name: 'push_batch' },
    pushSentAt: { ...dateColumn(true), name: 'push_sent_at' },
  },
});

/** A user's choice for one kind and channel; no row: the kind's default (rules.ts). */
export interface AlertPreferenceRow {
  userId: string;
  kind: AlertKind;
  channel: AlertChannel;
  enabled: boolean;
}

export const AlertPreferenceEntity = new EntitySchema<AlertPreferenceRow>({
  name: 'AlertPreference',
  tableName: 'alert_preferences',
  columns: {
    userId: { type: 'varchar', length: 36, primary: true, name: 'user_id' },
    kind: { type: 'varchar', length: 32, primary: true },
    channel: { type: 'varchar', length: 16, primary: true },
    enabled: { type: 'boolean' },
  },
});
