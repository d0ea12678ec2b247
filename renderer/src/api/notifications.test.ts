import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { notificationKeys, prependNotification } from './notifications';
import type { NotificationView } from './types';

const notification = (id: string): NotificationView => ({
  _id: id,
  senderUserId: null,
  receiverUserId: 'u1',
  amount: 5,
  type: 'currency',
  giveorreceive: 'receive',
  linkOrWishlist: 'link',
  relatedPostId: 'l1',
  message: 'You received a gift of $5.00!',
  ebItemPhoto: null,
  ebItemTitle: null,
  ebItemId: null,
  conversationId: 'c1',
  read: 0,
  createdAt: '2026-12-02T10:00:00.000Z',
});

describe('prependNotification: a live notification in the cached list', () => {
  it('goes on top, once', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(notificationKeys.list('u1'), [notification('n1')]);
    prependNotification(queryClient, 'u1', notification('n2'));
    prependNotification(queryClient, 'u1', notification('n2'));
    expect(queryClient.getQueryData<NotificationView[]>(notificationKeys.list('u1'))?.map((n) => n._id)).toEqual(['n2', 'n1']);
  });

  it('makes no list of one when none is cached (the page reads the whole list)', () => {
    const queryClient = new QueryClient();
    prependNotification(queryClient, 'u1', notification('n1'));
    expect(queryClient.getQueryData(notificationKeys.list('u1'))).toBeUndefined();
  });
});
