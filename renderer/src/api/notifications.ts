import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call } from './client';
import type { NotificationView } from './types';

export { MARK_READ_ERROR } from '../../../api/contract/texts';
export const NOTIFICATIONS_ERROR = 'An error occurred when fetching notifications. Please try again later.';

/** The user's notifications, newest first. */
export function listNotifications(userId: string, signal?: AbortSignal) {
  return call('GET /api/notifications/:userId', { params: { userId }, signal });
}

export function markNotificationsRead(userId: string) {
  return call('PUT /api/read-notifications/:userId', { params: { userId } });
}

// ---- the query cache ----------------------------------------------------------------------------

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (userId: string) => [...notificationKeys.all, userId] as const,
};

export function useNotificationsQuery(userId: string) {
  return useQuery({
    queryKey: notificationKeys.list(userId),
    queryFn: ({ signal }) => listNotifications(userId, signal),
  });
}

/** A live notification goes on top of the cached list (when it is cached, and once). */
export function prependNotification(queryClient: QueryClient, userId: string, notification: NotificationView): void {
  queryClient.setQueryData<NotificationView[]>(notificationKeys.list(userId), (items) =>
    items && !items.some((n) => n._id === notification._id) ? [notification, ...items] : items,
  );
}

/**
 * Mark all read. They show read at once, then the list is read again (if that fails, they are
 * read on the server all the same, and shown so).
 */
export function useMarkNotificationsRead(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markNotificationsRead(userId),
    onSuccess: () => {
      queryClient.setQueryData<NotificationView[]>(notificationKeys.list(userId), (items) =>
        items?.map((n) => ({ ...n, read: 1 as const })),
      );
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list(userId) });
    },
  });
}
