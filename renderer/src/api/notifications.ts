import { api } from './client';
import type { MarkNotificationsReadResponse, NotificationView } from './types';

const enc = encodeURIComponent;

/** SPEC section 8, as written. */
export const MARK_READ_ERROR = 'An error occurred when trying to mark notifications read. Please try again later.';
export const NOTIFICATIONS_ERROR = 'An error occurred when fetching notifications. Please try again later.';

/** The user's notifications, newest first. */
export function listNotifications(userId: string, signal?: AbortSignal) {
  return api.get<NotificationView[]>(`/api/notifications/${enc(userId)}`, { signal });
}

export function markNotificationsRead(userId: string) {
  return api.put<MarkNotificationsReadResponse>(`/api/read-notifications/${enc(userId)}`);
}
