import { useCallback, useEffect } from 'react';
import { atom, useAtomValue, useStore } from 'jotai';
import { io, type Socket } from 'socket.io-client';
import { findConversation, listConversations, postMessage } from '../api/conversations';
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
} from '../api/types';
import { truncatePreview } from '../messageText';
import { platform } from '../platform';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Store = ReturnType<typeof useStore>;

/** SPEC section 9: the product's socket reconnect delay cap. */
const RECONNECT_DELAY_MAX_MS = 2000;
/** How long a message sent over the socket waits for the server's acknowledgement. */
const SEND_ACK_TIMEOUT_MS = 10_000;
/** How many message ids are remembered to drop an event that arrives twice. */
const SEEN_LIMIT = 2000;

// ---- atoms ------------------------------------------------------------------------------------

/** Unread messages and notifications for the top bar: `init`/`unread-counts`, then kept live. */
export const unreadCountsAtom = atom<UnreadCounts>({ unreadMessages: 0, unreadNotifications: 0 });

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';
export const connectionStatusAtom = atom<ConnectionStatus>('disconnected');

/** The session's live connection (SPEC section 3: the socket context), or null when signed out. */
export const realtimeAtom = atom<RealtimeConnection | null>(null);

/** The inbox as last fetched and kept live since, or null before the first fetch. */
export const conversationsAtom = atom<ConversationView[] | null>(null);

/** Unread messages per conversation: seeded by the inbox fetch, raised live, zeroed on open. */
export const conversationUnreadAtom = atom<Readonly<Record<string, number>>>({});

/**
 * What has been taken off the Messages count ahead of the server, per conversation, and the
 * count version it was taken at (see `useMarkConversationRead`).
 */
const pendingReads = new Map<string, { amount: number; version: number }>();

// ---- events for screens -----------------------------------------------------------------------

export interface IncomingMessage {
  conversationId: string;
  message: MessageView;
  /** The sender's own pending-message id (own messages sent with one). */
  clientId?: string;
  /** False for messages delivered by the catch-up after a reconnect. */
  live: boolean;
}

type Listener<T> = (event: T) => void;

const otherName = (c: ConversationView | undefined) =>
  c ? (c.otherUser.anonymous ? 'Anonymous' : c.otherUser.displayName || c.otherUser.username) : null;

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

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
 * One socket.io connection for the signed-in session (same origin; the website authenticates with
 * its httpOnly cookie, the desktop app with the token from the platform's token store). It keeps
 * the unread counts and the inbox live, raises system notifications while the page is hidden,
 * catches up with `last_message_id` after a reconnect, and hands messages and notifications to
 * whichever screens listen.
 */
export class RealtimeConnection {
  readonly socket: RealtimeSocket;
  private readonly messageListeners = new Set<Listener<IncomingMessage>>();
  private readonly notificationListeners = new Set<Listener<NotificationView>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly seenMessages = new Set<string>();
  private readonly seenNotifications = new Set<string>();
  private readonly fetchingConversations = new Set<string>();
  /** The newest message (by seq) held while connected: where a catch-up starts. */
  private newest: { id: string; seq: number } | null = null;
  private everConnected = false;
  private closed = false;
  private retryTimer: number | undefined;
  /** Bumped by every count the server sends; optimistic changes check it (see `markRead`). */
  countsVersion = 0;

  constructor(
    private readonly store: Store,
    readonly userId: string,
    private readonly openConversation: (conversationId: string) => void,
  ) {
    this.socket = io({
      withCredentials: true,
      reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
      autoConnect: false,
      // Read at every (re)connection: the desktop's stored token, none on the website.
      auth: (cb) => {
        platform.token.get().then(
          (token) => cb(token ? { token } : {}),
          () => cb({}),
        );
      },
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
    this.messageListeners.clear();
    this.notificationListeners.clear();
    this.reconnectListeners.clear();
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }

  onMessage(listener: Listener<IncomingMessage>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onNotification(listener: Listener<NotificationView>): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  /** After every reconnect: screens re-read what has no catch-up (notifications, the inbox). */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /**
   * Messages a screen fetched over HTTP. They move the catch-up point only while connected: a page
   * read during an outage must not make the catch-up skip what the socket missed.
   */
  noteMessages(messages: readonly MessageView[]): void {
    if (!this.socket.connected) return;
    for (const m of messages) this.noteNewest(m);
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
      store.set(unreadCountsAtom, {
        unreadMessages: Math.max(0, counts.unreadMessages),
        unreadNotifications: Math.max(0, counts.unreadNotifications),
      });
    };

    socket.on('connect', () => {
      store.set(connectionStatusAtom, 'connected');
      if (this.everConnected) {
        this.catchUp(this.newest?.id ?? null);
        for (const listener of [...this.reconnectListeners]) listener();
      }
      this.everConnected = true;
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
      for (const message of event.messages) this.receive({ conversationId: message.conversationId, message, live: false });
      const last = event.messages[event.messages.length - 1];
      if (event.hasMore && last) this.catchUp(last._id);
    });
    socket.on('getNotification', (notification) => this.receiveNotification(notification));
  }

  /** After a reconnect: everything after the newest message held, across all conversations. */
  private catchUp(lastMessageId: string | null): void {
    if (!lastMessageId) return; // nothing held: screens re-read on reconnect
    this.socket.emit('last_message_id', { lastMessageId }, () => {
      // The messages come as `missed-messages`; a refusal leaves the screens' own re-reads.
    });
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
    const { message } = event;
    this.noteNewest(message);
    const first = this.remember(this.seenMessages, message._id);
    if (first) {
      this.updateInbox(event.conversationId, message);
      // A catch-up's messages are already in the counts `init` sent at the reconnect.
      if (event.live && !message.mine) this.countIncoming(event.conversationId, message);
    }
    // Screens de-duplicate by _id themselves; an own message may come back carrying its clientId.
    if (first || event.clientId) for (const listener of [...this.messageListeners]) listener(event);
  }

  private countIncoming(conversationId: string, message: MessageView): void {
    const { store } = this;
    store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: c.unreadMessages + 1 }));
    store.set(conversationUnreadAtom, (u) => ({ ...u, [conversationId]: (u[conversationId] ?? 0) + 1 }));
    if (isHidden()) {
      const conversation = store.get(conversationsAtom)?.find((c) => c._id === conversationId);
      const name = otherName(conversation);
      const title = message.messageType === 'gift' ? 'You received a gift' : name ? `New message from ${name}` : 'New message';
      void platform.notifications
        .show(title, truncatePreview(message.text), { tag: `message:${message._id}`, onClick: () => this.openConversation(conversationId) })
        .catch(() => undefined);
    }
  }

  private receiveNotification(notification: NotificationView): void {
    if (this.closed || !this.remember(this.seenNotifications, notification._id)) return;
    if (!notification.read) this.store.set(unreadCountsAtom, (c) => ({ ...c, unreadNotifications: c.unreadNotifications + 1 }));
    if (isHidden()) {
      const { conversationId } = notification;
      void platform.notifications
        .show('Giftlink', notification.message, {
          tag: `notification:${notification._id}`,
          onClick: conversationId ? () => this.openConversation(conversationId) : undefined,
        })
        .catch(() => undefined);
    }
    for (const listener of [...this.notificationListeners]) listener(notification);
  }

  /** Keeps the cached inbox live: the conversation moves to the top with its new last message. */
  private updateInbox(conversationId: string, message: MessageView): void {
    const { store } = this;
    const list = store.get(conversationsAtom);
    if (!list) return; // not fetched yet: the first fetch brings it
    const index = list.findIndex((c) => c._id === conversationId);
    if (index === -1) {
      this.fetchConversation(conversationId);
      return;
    }
    const current = list[index];
    if (current.lastMessage && current.lastMessage.seq >= message.seq) return;
    const updated = { ...current, lastMessage: message };
    store.set(conversationsAtom, [updated, ...list.slice(0, index), ...list.slice(index + 1)]);
  }

  /** A conversation the inbox does not know yet (a new gift): fetch it and put it on top. */
  private fetchConversation(conversationId: string): void {
    if (this.fetchingConversations.has(conversationId)) return;
    this.fetchingConversations.add(conversationId);
    findConversation(conversationId)
      .then((conversation) => {
        if (this.closed) return;
        const list = this.store.get(conversationsAtom) ?? [];
        if (list.some((c) => c._id === conversation._id)) return;
        this.store.set(conversationsAtom, [conversation, ...list]);
      })
      .catch(() => {
        // The next inbox fetch brings it.
      })
      .finally(() => this.fetchingConversations.delete(conversationId));
  }
}

// ---- session wiring ---------------------------------------------------------------------------

/** Forgets everything real-time (logout). */
export const resetRealtimeAtom = atom(null, (get, set) => {
  get(realtimeAtom)?.close();
  set(realtimeAtom, null);
  set(connectionStatusAtom, 'disconnected');
  set(unreadCountsAtom, { unreadMessages: 0, unreadNotifications: 0 });
  set(conversationsAtom, null);
  set(conversationUnreadAtom, {});
  pendingReads.clear();
});

/** Fetches the inbox into `conversationsAtom` (and the per-conversation unread counts). */
export async function refreshConversations(store: Store, userId: string, signal?: AbortSignal): Promise<ConversationView[]> {
  const list = await listConversations(userId, signal);
  store.set(conversationsAtom, list);
  store.set(conversationUnreadAtom, Object.fromEntries(list.map((c) => [c._id, c.unreadCount])));
  store.get(realtimeAtom)?.noteMessages(list.flatMap((c) => (c.lastMessage ? [c.lastMessage] : [])));
  return list;
}

/**
 * One connection per signed-in session: opened once the session is known, closed when the user
 * signs out. Mounted once, in the app layout.
 */
export function useRealtimeSession(userId: string | null, openConversation: (conversationId: string) => void): void {
  const store = useStore();
  useEffect(() => {
    if (!userId) return;
    const connection = new RealtimeConnection(store, userId, openConversation);
    store.set(realtimeAtom, connection);
    const controller = new AbortController();
    // The inbox in the background: names for system notifications, unread per conversation.
    refreshConversations(store, userId, controller.signal).catch(() => undefined);
    return () => {
      controller.abort();
      if (store.get(realtimeAtom) === connection) store.set(resetRealtimeAtom);
      else connection.close();
    };
  }, [userId, store, openConversation]);
}

/** Calls `listener` for every message the session receives (live, own, or caught up). */
export function useIncomingMessages(listener: Listener<IncomingMessage>): void {
  const connection = useAtomValue(realtimeAtom);
  useEffect(() => connection?.onMessage(listener), [connection, listener]);
}

/** Calls `listener` after every reconnect of the session's socket. */
export function useReconnected(listener: () => void): void {
  const connection = useAtomValue(realtimeAtom);
  useEffect(() => connection?.onReconnect(listener), [connection, listener]);
}

/** Calls `listener` for every new notification. */
export function useIncomingNotifications(listener: Listener<NotificationView>): void {
  const connection = useAtomValue(realtimeAtom);
  useEffect(() => connection?.onNotification(listener), [connection, listener]);
}

/**
 * Lowers the Messages count when a conversation is read. `begin` (when the conversation is opened,
 * or a message arrives in it while it is on screen) takes off at once what the conversation is
 * known to hold; `finish` (with the answer's `markedAsRead`) settles the difference — unless the
 * server has sent its own counts meanwhile, which already tell the truth.
 */
export function useMarkConversationRead() {
  const store = useStore();
  const begin = useCallback(
    (conversationId: string) => {
      const known = store.get(conversationUnreadAtom)[conversationId] ?? 0;
      const pending = pendingReads.get(conversationId);
      const version = pending?.version ?? store.get(realtimeAtom)?.countsVersion ?? 0;
      pendingReads.set(conversationId, { amount: (pending?.amount ?? 0) + known, version });
      if (known > 0) {
        store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: Math.max(0, c.unreadMessages - known) }));
        store.set(conversationUnreadAtom, (u) => ({ ...u, [conversationId]: 0 }));
      }
    },
    [store],
  );
  const finish = useCallback(
    (conversationId: string, markedAsRead: number) => {
      const pending = pendingReads.get(conversationId) ?? { amount: 0, version: store.get(realtimeAtom)?.countsVersion ?? 0 };
      pendingReads.delete(conversationId);
      if ((store.get(realtimeAtom)?.countsVersion ?? 0) !== pending.version) return;
      const delta = markedAsRead - pending.amount;
      if (delta !== 0)
        store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: Math.max(0, c.unreadMessages - delta) }));
    },
    [store],
  );
  return { begin, finish };
}

/** Mark all read: the Notifications count goes to zero at once. */
export const clearUnreadNotificationsAtom = atom(null, (_get, set) => {
  set(unreadCountsAtom, (c) => ({ ...c, unreadNotifications: 0 }));
});
