import type { Conversation, Message } from '../conversations/entity.js';
import type { Notification } from '../notifications/entity.js';
import type { AlertKind } from '../../contract/alerts.js';
import { publishOnCommit } from '../db/observer.js';

/**
 * What a service tells the real-time layer once its transaction has committed. Events carry the
 * records; the real-time layer presents them for each member who receives them (so anonymity is
 * applied per viewer, in one place: the presenters).
 *
 * - `message`: a message was persisted; both members' rooms get `new-message`.
 * - `notification`: a notification was made; the receiver's room gets `getNotification`, with the
 *   alert kind it tells (none for a gift's, which its message tells) for the hidden tab's notice.
 * - `unread`: the user's unread counts changed (a conversation opened, notifications marked
 *   read); the user's room gets `unread-counts`, so every tab's badges follow.
 * - `balance`: these users' money changed (the database tells it after each commit that moved it:
 *   db/observer.ts); each one's room gets `balance`, their own balance answer.
 */
export type RealtimeEvent =
  | { type: 'message'; conversation: Conversation; message: Message; /** echoed to the sender's room only */ clientId?: string }
  | { type: 'notification'; notification: Notification; /** the alert kind it tells, for the live system notification */ alert?: AlertKind }
  | { type: 'unread'; userId: string }
  | { type: 'balance'; userIds: readonly string[] };

/**
 * The seam services publish through. Call it only AFTER the transaction commits (never inside
 * `db.transaction`), and not for an idempotent replay: nothing new happened then. A money-moving
 * command hands its events to its unit of work (`uow.afterCommit`, http/unit-of-work.ts), which
 * publishes them so.
 */
export interface Publisher {
  publish(events: readonly RealtimeEvent[]): void;
}

/**
 * Inside a transaction's work: publishes `events` once the transaction has committed (the server
 * wires the database's `onCommitted` to the hub), never if it rolls back, and not for an
 * idempotent replay, which runs no work.
 */
export function afterCommit(...events: readonly RealtimeEvent[]): void {
  for (const event of events) publishOnCommit(event);
}
