import { z } from 'zod';
import { count, dollars, isoTime } from './common.js';

/** A notification as its recipient sees it (`GET /api/notifications/{userId}`, `getNotification`). */
export const NotificationView = z.object({
  _id: z.string(),
  /** Always anonymous: the sender of a gift is never shown to its recipient. */
  senderUserId: z.null(),
  receiverUserId: z.string(),
  /** Dollars. */
  amount: dollars,
  /**
   * `order`: about an item order, from Giftlink itself. `giveorreceive` says the reader's side:
   * `receive` asks the recipient for a shipping address, `give` tells the giver a gift went back.
   * `subscription`: about the reader's weekly subscription (a renewal that could not be paid), from Giftlink itself.
   */
  type: z.enum(['currency', 'item', 'wishlist', 'order', 'subscription']),
  giveorreceive: z.enum(['give', 'receive']).nullable(),
  linkOrWishlist: z.enum(['link', 'wishlist']),
  relatedPostId: z.string().nullable(),
  message: z.string(),
  ebItemPhoto: z.string().nullable(),
  ebItemTitle: z.string().nullable(),
  ebItemId: z.string().nullable(),
  conversationId: z.string().nullable(),
  read: z.union([z.literal(0), z.literal(1)]),
  createdAt: isoTime,
});
export type NotificationView = z.infer<typeof NotificationView>;

/** `PUT /api/read-notifications/{userId}`. */
export const MarkNotificationsReadResponse = z.object({ markedAsRead: count });
export type MarkNotificationsReadResponse = z.infer<typeof MarkNotificationsReadResponse>;
