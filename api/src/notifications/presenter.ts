import { centsToDollars } from '../money/cents.js';
import type { Notification } from './entity.js';

export interface NotificationView {
  _id: string;
  /** Always anonymous: the sender of a gift is never shown to its recipient. */
  senderUserId: null;
  receiverUserId: string;
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

export const presentNotification = (n: Notification): NotificationView => ({
  _id: n.id,
  senderUserId: null,
  receiverUserId: n.receiverId,
  amount: centsToDollars(n.amountCents),
  type: n.type,
  giveorreceive: n.giveOrReceive,
  linkOrWishlist: n.linkOrWishlist,
  relatedPostId: n.relatedPostId,
  message: n.message,
  ebItemPhoto: n.itemPhoto,
  ebItemTitle: n.itemTitle,
  ebItemId: n.itemId,
  conversationId: n.conversationId,
  read: n.read ? 1 : 0,
  createdAt: n.createdAt.toISOString(),
});
