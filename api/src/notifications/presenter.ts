import { centsToDollars } from '../../contract/money.js';
import type { Notification } from './entity.js';
import type { NotificationView } from '../../contract/notifications.js';

export type { NotificationView };

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
