/** A notification as its recipient sees it (`GET /api/notifications/{userId}`, `getNotification`). */
export interface NotificationView {
  _id: string;
  /** Always anonymous: the sender of a gift is never shown to its recipient. */
  senderUserId: null;
  receiverUserId: string;
  /** Dollars. */
  amount: number;
  type: 'currency' | 'item' | 'wishlist';
  giveorreceive: 'give' | 'receive' | null;
  linkOrWishlist: 'link' | 'wishlist';
  relatedPostId: string | null;
  message: string;
  ebItemPhoto: string | null;
  ebItemTitle: string | null;
  ebItemId: string | null;
  conversationId: string | null;
  read: 0 | 1;
  createdAt: string;
}

/** `PUT /api/read-notifications/{userId}`. */
export interface MarkNotificationsReadResponse {
  markedAsRead: number;
}
