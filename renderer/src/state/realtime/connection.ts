import type { createStore } from 'jotai';
import type { QueryClient } from '@tanstack/react-query';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { refreshSession, sessionKeys, setPushedBalance } from '../../api/auth';
import { API_BASE_URL } from '../../api/client';
import {
  addToThread,
  conversationKeys,
  moveToTopOfInbox,
  postMessage,
  setInboxUnread,
  type MessageSender,
  type InboxData,
  type ThreadData,
} from '../../api/conversations';
import { notificationKeys, prependNotification } from '../../api/notifications';
import type {
  ClientToServerEvents,
  ConversationView,
  MessageView,
  MissedMessagesEvent,
  NewMessageEvent,
  NotificationView,
  RealtimeErrorBody,
  ServerToClientEvents,
  UnreadCounts,
  User,
} from '../../api/types';
import { alertPath, liveAlert } from '../../../../api/contract/alert-texts';
import type { AlertKind } from '../../../../api/contract/alerts';
import { truncatePreview } from '../../messageText';
import { platform } from '../../platform';
import { connectionStatusAtom, unreadCountsAtom } from './atoms';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Store = ReturnType<typeof createStore>;

/** PRODUCT.md §9: the product's socket reconnect delay cap. */
export const RECONNECT_DELAY_MAX_MS = 2000;
/** How long a message sent over the socket waits for the server's acknowledgement. */
const SEND_ACK_TIMEOUT_MS = 10_000;
/** How many message ids are remembered to drop an event that arrives twice. */
const SEEN_LIMIT = 2000;
/** How often a connected client asks for what it may have missed live (a lost publish). */
const RESYNC_MS = 60_000;

/** A `new-message` event, or a message of the catch-up after a reconnect (`live: false`). */
export type IncomingMessage = NewMessageEvent & { live: boolean };

type Listener<T> = (event: T) => void;

/** Whether a system notification should tell: the page is hidden, or the desktop app's window is not focused. */
const isHidden = () =>
  typeof document !== 'undefined' && (document.visibilityState === 'hidden' || (platform.kind === 'desktop' && !document.hasFocus()));

/** The messages a cached conversation answer holds: an inbox, one conversation, or a thread. */
function messagesIn(data: unknown): MessageView[] {
  if (data && typeof data === 'object' && 'pages' in data)
    return (data as ThreadData | InboxData).pages.flatMap((p) =>
      'messages' in p ? p.messages : p.conversations.flatMap((c) => (c.lastMessage ? [c.lastMessage] : [])),
    );
  const last = (data as ConversationView | undefined)?.lastMessage;
  return last ? [last] : [];
}

/** Thrown when a message could not be sent; `message` is the server's text. */
export class SendMessageError extends Error {
  readonly code: string;
  constructor(body: RealtimeErrorBody) {
    super(body.message);
    this.name = 'SendMessageError';
    this.code = body.error;
  }
}

/**
 * One socket.io connection for the signed-in session (the website authenticates with its httpOnly
 * cookie on its own origin; the desktop app's main process adds the token to the handshake). Its
 * events go into the query cache — messages into their thread and the inbox, notifications into
 * their list, the pushed balance into the session — and the unread counts; it raises system notifications while
 * the page is hidden, catches up with `last_message_id` after a reconnect and re-reads what has no
 * catch-up, and tells the open thread what arrived.
 */
export class RealtimeConnection implements MessageSender {
  readonly socket: RealtimeSocket;
  private readonly messageListeners = new Set<Listener<IncomingMessage>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly seenMessages = new Set<string>();
  private readonly seenNotifications = new Set<string>();
  private readonly unsubscribeCache: () => void;
  private readonly unsubscribeCounts: () => void;
  /** The newest message (by seq) held while connected: where a catch-up starts. */
  private newest: { id: string; seq: number } | null = null;
  /** `newest` at the last resync (or connect): where the next resync starts. */
  private resyncFrom: { id: string; seq: number } | null = null;
  /** Resyncs asked and not yet answered: their messages count as live ones. */
  private resyncing = 0;
  private resyncTimer: number | undefined;
  private everConnected = false;
  private closed = false;
  private retryTimer: number | undefined;
  /** Bumped by every count the server sends; optimistic changes check it (see `markRead`). */
  countsVersion = 0;

  constructor(
    private readonly store: Store,
    private readonly queryClient: QueryClient,
    readonly userId: string,
    /** Opens a path of the app (a click on a system notification). */
    private readonly open: (path: string) => void,
  ) {
    const options: Partial<ManagerOptions & SocketOptions> = {
      // The website's handshake carries its session cookie; the desktop app's main process adds the token header.
      withCredentials: platform.kind !== 'desktop',
      reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
      autoConnect: false,
    };
    // Same origin on the website; the hosted API from the desktop app (app://giftlink).
    this.socket = API_BASE_URL ? io(API_BASE_URL, options) : io(options);
    // The desktop app's tray and badge follow the counts, on every change.
    const reportUnread = ({ unreadMessages, unreadNotifications }: UnreadCounts) =>
      void platform.desktop?.reportUnread({ messages: unreadMessages, notifications: unreadNotifications }).catch(() => undefined);
    this.unsubscribeCounts = platform.desktop ? store.sub(unreadCountsAtom, () => reportUnread(store.get(unreadCountsAtom))) : () => {};
    // Messages screens fetch over HTTP move the catch-up point — only while connected: a page
    // read during an outage must not make the catch-up skip what the socket missed.
    this.unsubscribeCache = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
      if (event.query.queryKey[0] !== conversationKeys.all[0] || !this.socket.connected) return;
      for (const m of messagesIn(event.query.state.data)) this.noteNewest(m);
    });
    this.wire();
    this.store.set(connectionStatusAtom, 'connecting');
    this.socket.connect();
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.resyncTimer);
    this.unsubscribeCache();
    this.unsubscribeCounts();
    // Signed out: the tray and the badge show nothing unread.
    void platform.desktop?.reportUnread({ messages: 0, notifications: 0 }).catch(() => undefined);
    this.messageListeners.clear();
    this.reconnectListeners.clear();
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }

  onMessage(listener: Listener<IncomingMessage>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** After every reconnect (once the session's own re-reads are asked for). */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Sends over the socket with an acknowledgement when connected, else with POST /messages/send. */
  async send(conversationId: string, text: string, clientId: string): Promise<MessageView> {
    if (this.socket.connected) {
      const ack = await this.socket.timeout(SEND_ACK_TIMEOUT_MS).emitWithAck('sendMessage', { conversationId, text, clientId });
      if (!ack.ok) throw new SendMessageError(ack.error);
      this.receive({ conversationId, message: ack.message, clientId, live: true });
      return ack.message;
    }
    const { message } = await postMessage({ conversationId, senderUserId: this.userId, text, clientId });
    this.receive({ conversationId, message, clientId, live: true });
    return message;
  }

  // ---- socket events --------------------------------------------------------------------------

  private wire(): void {
    const { socket, store } = this;
    const setCounts = (counts: UnreadCounts) => {
      this.countsVersion += 1;
      // Fewer unread notifications (an opened thread read its gift's, or Mark all read): the cached list is stale.
      if (counts.unreadNotifications < store.get(unreadCountsAtom).unreadNotifications) {
        void this.queryClient.invalidateQueries({ queryKey: notificationKeys.all });
      }
      store.set(unreadCountsAtom, {
        unreadMessages: Math.max(0, counts.unreadMessages),
        unreadNotifications: Math.max(0, counts.unreadNotifications),
      });
    };

    socket.on('connect', () => {
      store.set(connectionStatusAtom, 'connected');
      if (this.everConnected) {
        this.catchUp(this.newest?.id ?? null);
        this.rereadAfterOutage();
        for (const listener of [...this.reconnectListeners]) listener();
      }
      this.everConnected = true;
      // Kept across a reconnect: a message lost live before it is older than the reconnect's catch-up point.
      this.resyncFrom ??= this.newest;
    });
    socket.on('disconnect', () => {
      if (!this.closed) store.set(connectionStatusAtom, 'disconnected');
    });
    socket.on('connect_error', (err) => {
      if (this.closed) return;
      store.set(connectionStatusAtom, 'disconnected');
      // A refused handshake is not retried by socket.io: try again unless we are not signed in.
      const code = (err as Error & { data?: Partial<RealtimeErrorBody> }).data?.error;
      if (!socket.active && code !== 'unauthorized' && code !== 'forbidden') {
        window.clearTimeout(this.retryTimer);
        this.retryTimer = window.setTimeout(() => {
          if (!this.closed) socket.connect();
        }, RECONNECT_DELAY_MAX_MS);
      }
    });

    socket.on('init', setCounts);
    socket.on('unread-counts', setCounts);
    socket.on('new-message', (event: NewMessageEvent) => this.receive({ ...event, live: true }));
    socket.on('missed-messages', (event: MissedMessagesEvent) => {
      const live = this.resyncing > 0;
      for (const message of event.messages) this.receive({ conversationId: message.conversationId, message, live });
      const last = event.messages[event.messages.length - 1];
      if (event.hasMore && last) this.catchUp(last._id);
    });
    socket.on('getNotification', (notification, alert) => this.receiveNotification(notification, alert));
    // The user's own money after a committed change: the top bar and the balance dialog follow it unread.
    socket.on('balance', (balance) => {
      if (!this.closed) setPushedBalance(this.queryClient, balance);
    });
    this.resyncTimer = window.setInterval(() => this.resync(), RESYNC_MS);
  }

  /**
   * Every RESYNC_MS while connected: everything after what was newest at the last resync. A message
   * whose live event was lost (its node died between COMMIT and publish, Redis was cut) is then
   * fetched although the socket stayed up: numbers follow commit order per member (decision 0002),
   * so it is numbered after all that was held when the last resync ran.
   */
  private resync(): void {
    if (this.closed || !this.socket.connected) return;
    const from = this.resyncFrom;
    this.resyncFrom = this.newest;
    if (!from) return;
    this.resyncing += 1;
    this.socket.emit('last_message_id', { lastMessageId: from.id }, (ack) => {
      this.resyncing -= 1;
      // Refused (too many at once): the next resync starts from the same point.
      if (!ack.ok && (!this.resyncFrom || from.seq < this.resyncFrom.seq)) this.resyncFrom = from;
    });
  }

  /** After a reconnect: everything after the newest message held, across all conversations. */
  private catchUp(lastMessageId: string | null): void {
    if (!lastMessageId) return; // nothing held: the inbox and the open thread re-read themselves
    this.socket.emit('last_message_id', { lastMessageId }, () => {
      // The messages come as `missed-messages`; a refusal leaves the re-reads.
    });
  }

  /** What has no catch-up is read again: notifications, the inbox (new conversations), the balance (its pushes missed). */
  private rereadAfterOutage(): void {
    const { queryClient } = this;
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists(), refetchType: 'all' });
    void refreshSession(queryClient);
  }

  private noteNewest(m: MessageView): void {
    if (!this.newest || m.seq > this.newest.seq) this.newest = { id: m._id, seq: m.seq };
  }

  private remember(set: Set<string>, id: string): boolean {
    if (set.has(id)) return false;
    set.add(id);
    if (set.size > SEEN_LIMIT) set.delete(set.values().next().value as string);
    return true;
  }

  private receive(event: IncomingMessage): void {
    if (this.closed) return;
    const { message, conversationId } = event;
    this.noteNewest(message);
    const first = this.remember(this.seenMessages, message._id);
    if (first) {
      addToThread(this.queryClient, conversationId, [message]);
      // A conversation the inbox does not know yet (a new gift): read the inbox again.
      if (!moveToTopOfInbox(this.queryClient, this.userId, conversationId, message))
        void this.queryClient.invalidateQueries({ queryKey: conversationKeys.list(this.userId), refetchType: 'all' });
      // A catch-up's messages are already in the counts `init` sent at the reconnect.
      if (event.live && !message.mine) this.countIncoming(conversationId, message);
    }
    // An own message may come back carrying its clientId: the thread drops its pending copy.
    if (first || event.clientId) for (const listener of [...this.messageListeners]) listener(event);
  }

  private countIncoming(conversationId: string, message: MessageView): void {
    const { store, queryClient, userId } = this;
    store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: c.unreadMessages + 1 }));
    setInboxUnread(queryClient, userId, conversationId, (n) => n + 1);
    if (isHidden()) {
      // The one rule's words (api/contract/alert-texts.ts): no name, the thread's own text.
      const { title, body } = liveAlert(message.messageType === 'gift' ? 'gift' : 'message', truncatePreview(message.text));
      void platform.notifications
        .show(title, body, {
          tag: `message:${message._id}`,
          onClick: () => this.open(alertPath('message', { conversationId, username: this.username() })),
        })
        .catch(() => undefined);
    }
  }

  /** The signed-in user's username (the session's), for pages of their own. */
  private username(): string {
    return this.queryClient.getQueryData<User | null>(sessionKeys.me)?.username ?? '';
  }

  private receiveNotification(notification: NotificationView, alert: AlertKind | null): void {
    if (this.closed || !this.remember(this.seenNotifications, notification._id)) return;
    if (!notification.read) this.store.set(unreadCountsAtom, (c) => ({ ...c, unreadNotifications: c.unreadNotifications + 1 }));
    prependNotification(this.queryClient, this.userId, notification);
    // Only what the one rule tells (a gift's notification is told by its message).
    if (alert && isHidden()) {
      const { title, body } = liveAlert(alert);
      const path = alertPath(alert, { conversationId: notification.conversationId, username: this.username() });
      void platform.notifications
        .show(title, body, { tag: `notification:${notification._id}`, onClick: () => this.open(path) })
        .catch(() => undefined);
    }
  }
}
