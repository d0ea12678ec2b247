/** A notification as its recipient sees it (`GET /api/notifications/{userId}`, `getNotification`). */
export interface NotificationView {
  _id: string;
  /** Always anonymous: the sender of a gift is never shown to its recipient. */
  senderUserId: null;
  receiverUserId: string;
  /** Dollars. */
  amount: number;
  /**
   * `order`: about an item order, from Giftlink itself. `giveorreceive` says the reader's side:
   * `receive` asks the recipient for a shipping address, `give` tells the giver a gift went back.
   * `subscription`: about the reader's weekly subscription (a renewal that could not be paid), from Giftlink itself.
   */
  type: 'currency' | 'item' | 'wishlist' | 'order' | 'subscription';
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
