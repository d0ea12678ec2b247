import { atom } from 'jotai';
import type { UnreadCounts } from '../../api/types';

/**
 * The real-time state the whole app reads (the top bar, the thread header), apart from the
 * connection itself (realtimeConnection.ts), which brings socket.io-client and loads only once
 * someone signs in: a visitor's first load never carries it.
 */

/** Unread messages and notifications for the top bar: `init`/`unread-counts`, then kept live. */
export const unreadCountsAtom = atom<UnreadCounts>({ unreadMessages: 0, unreadNotifications: 0 });

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';
export const connectionStatusAtom = atom<ConnectionStatus>('disconnected');
