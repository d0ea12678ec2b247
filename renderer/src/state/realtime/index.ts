import { useCallback, useEffect } from 'react';
import { atom, useAtomValue, useStore } from 'jotai';
import { useQueryClient } from '@tanstack/react-query';
import { conversationListQuery, inboxUnread, setInboxUnread } from '../../api/conversations';
import { connectionStatusAtom, unreadCountsAtom } from './atoms';
import type { IncomingMessage, RealtimeConnection } from './connection';

export { connectionStatusAtom, unreadCountsAtom } from './atoms';
export type { IncomingMessage, RealtimeConnection } from './connection';

/** The session's live connection (PRODUCT.md §3: the socket context), or null when signed out. */
export const realtimeAtom = atom<RealtimeConnection | null>(null);

/**
 * What has been taken off the Messages count ahead of the server, per conversation, and the
 * count version it was taken at (see `useMarkConversationRead`).
 */
const pendingReads = new Map<string, { amount: number; version: number }>();

/** Forgets everything real-time (logout). */
export const resetRealtimeAtom = atom(null, (get, set) => {
  get(realtimeAtom)?.close();
  set(realtimeAtom, null);
  set(connectionStatusAtom, 'disconnected');
  set(unreadCountsAtom, { unreadMessages: 0, unreadNotifications: 0 });
  pendingReads.clear();
});

/**
 * One connection per signed-in session: opened once the session is known, closed when the user
 * signs out. Mounted once, in the app layout. The connection's code (and socket.io-client) loads
 * here, when someone is signed in, never in a visitor's first load. The inbox is read in the
 * background (unread per conversation, the thread list) and kept for the session.
 */
export function useRealtimeSession(userId: string | null, openPath: (path: string) => void): void {
  const store = useStore();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    let connection: RealtimeConnection | undefined;
    let ended = false;
    store.set(connectionStatusAtom, 'connecting');
    import('./connection')
      .then(({ RealtimeConnection }) => {
        if (ended) return;
        connection = new RealtimeConnection(store, queryClient, userId, openPath);
        store.set(realtimeAtom, connection);
      })
      .catch((err: unknown) => {
        // The chunk did not load (offline, a new deploy): messages go over HTTP until the next page load.
        console.warn('real-time connection unavailable', err);
        if (!ended) store.set(connectionStatusAtom, 'disconnected');
      });
    void queryClient.prefetchInfiniteQuery(conversationListQuery(userId));
    return () => {
      ended = true;
      if (!connection) {
        store.set(connectionStatusAtom, 'disconnected');
        return;
      }
      if (store.get(realtimeAtom) === connection) store.set(resetRealtimeAtom);
      else connection.close();
    };
  }, [userId, store, queryClient, openPath]);
}

/** Calls `listener` for every message the session receives (live, own, or caught up). */
export function useIncomingMessages(listener: (event: IncomingMessage) => void): void {
  const connection = useAtomValue(realtimeAtom);
  useEffect(() => connection?.onMessage(listener), [connection, listener]);
}

/** Calls `listener` after every reconnect of the session's socket. */
export function useReconnected(listener: () => void): void {
  const connection = useAtomValue(realtimeAtom);
  useEffect(() => connection?.onReconnect(listener), [connection, listener]);
}

/**
 * Lowers the Messages count when a conversation is read. `begin` (when the conversation is opened,
 * or a message arrives in it while it is on screen) takes off at once what the inbox knows it
 * holds; `finish` (with the answer's `markedAsRead`) settles the difference — unless the server
 * has sent its own counts meanwhile, which already tell the truth.
 */
export function useMarkConversationRead(userId: string) {
  const store = useStore();
  const queryClient = useQueryClient();
  const begin = useCallback(
    (conversationId: string) => {
      const known = inboxUnread(queryClient, userId, conversationId);
      const pending = pendingReads.get(conversationId);
      const version = pending?.version ?? store.get(realtimeAtom)?.countsVersion ?? 0;
      pendingReads.set(conversationId, { amount: (pending?.amount ?? 0) + known, version });
      if (known > 0) {
        store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: Math.max(0, c.unreadMessages - known) }));
        setInboxUnread(queryClient, userId, conversationId, () => 0);
      }
    },
    [store, queryClient, userId],
  );
  const finish = useCallback(
    (conversationId: string, markedAsRead: number) => {
      const pending = pendingReads.get(conversationId) ?? { amount: 0, version: store.get(realtimeAtom)?.countsVersion ?? 0 };
      pendingReads.delete(conversationId);
      if ((store.get(realtimeAtom)?.countsVersion ?? 0) !== pending.version) return;
      const delta = markedAsRead - pending.amount;
      if (delta !== 0) store.set(unreadCountsAtom, (c) => ({ ...c, unreadMessages: Math.max(0, c.unreadMessages - delta) }));
    },
    [store],
  );
  return { begin, finish };
}

/** Mark all read: the Notifications count goes to zero at once. */
export const clearUnreadNotificationsAtom = atom(null, (_get, set) => {
  set(unreadCountsAtom, (c) => ({ ...c, unreadNotifications: 0 }));
});
