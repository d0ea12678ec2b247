/**
 * The socket.io contract (PRODUCT.md §7). The server identifies the user at the handshake
 * (auth.token, the x-auth-token header or the session cookie) and never trusts an id a client
 * sends.
 */
import type { ApiErrorBody } from './common.js';
import type { MessageView } from './conversations.js';
import type { NotificationView } from './notifications.js';
import type { AlertKind } from './alerts.js';
import type { BalanceResponse } from './wallet.js';

export type { MessageView, NotificationView };

/** `init` on connect (and in answer to `newUser`); `unread-counts` whenever they change by a read. */
export interface UnreadCounts {
  unreadMessages: number;
  unreadNotifications: number;
}

/**
 * `balance`: the user's own money after a committed change (a give, a purchase, a deposit, a
 * refund, a dispute…), the same answer as GET /api/billing-settings-balance. It names nobody else.
 */
export type BalanceEvent = BalanceResponse;

/** A persisted message, presented for the member receiving the event (anonymity applied). */
export interface NewMessageEvent {
  conversationId: string;
  message: MessageView;
  /** Only on the sender's own sockets: the `clientId` they sent with `sendMessage`. */
  clientId?: string;
}

/** The answer to `last_message_id`: messages after the client's last one, oldest first. */
export interface MissedMessagesEvent {
  /** The conversation asked about, or null when the client asked across all its conversations. */
  conversationId: string | null;
  messages: MessageView[];
  /** True when more remain: ask again with the last message's `_id`. */
  hasMore: boolean;
}

/** `error` is unauthorized, forbidden, not_found, validation_failed, abusive_text, rate_limited, server_error… (errors.ts). */
export type RealtimeErrorBody = ApiErrorBody;

/** Sent to a socket when one of its events without an acknowledgement callback failed. */
export interface RealtimeErrorEvent extends RealtimeErrorBody {
  event: 'sendMessage' | 'last_message_id';
}

export interface SendMessagePayload {
  conversationId: string;
  text: string;
  /** Optional; when present it must be the authenticated user, else the message is refused. */
  senderUserId?: string;
  /** Optional; when present it must be the other member of the conversation. */
  receiverUserId?: string;
  /** Optional client-side id of a pending message, echoed back (ack and own `new-message`). */
  clientId?: string;
}

export type SendMessageAck =
  { ok: true; message: MessageView; clientId?: string } | { ok: false; error: RealtimeErrorBody; clientId?: string };

export interface LastMessageIdPayload {
  /** The newest message the client holds (by `seq`); null or absent for "from the beginning". */
  lastMessageId?: string | null;
  /** Limit the catch-up to one conversation; absent for all of the user's conversations. */
  conversationId?: string | null;
}

export type LastMessageIdAck = { ok: true; count: number; hasMore: boolean } | { ok: false; error: RealtimeErrorBody };

export interface ServerToClientEvents {
  init: (counts: UnreadCounts) => void;
  'unread-counts': (counts: UnreadCounts) => void;
  'new-message': (event: NewMessageEvent) => void;
  /** With the alert kind it tells (api/contract/alert-texts.ts), or null: a gift's, which its message tells. */
  getNotification: (notification: NotificationView, alert: AlertKind | null) => void;
  'missed-messages': (event: MissedMessagesEvent) => void;
  'realtime-error': (event: RealtimeErrorEvent) => void;
  balance: (event: BalanceEvent) => void;
}

export interface ClientToServerEvents {
  /** Kept for old clients; the payload is ignored (identity comes from the handshake). Answers `init`. */
  newUser: (ignored?: unknown) => void;
  sendMessage: (payload: SendMessagePayload, ack?: (answer: SendMessageAck) => void) => void;
  last_message_id: (payload: LastMessageIdPayload, ack?: (answer: LastMessageIdAck) => void) => void;
}
