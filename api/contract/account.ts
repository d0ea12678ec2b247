import { z } from 'zod';
import type { ConversationView, MessageView } from './conversations.js';
import type { InviteView } from './invites.js';
import type { LinkView } from './links.js';
import type { NotificationView } from './notifications.js';
import type { OrdersResponse } from './orders.js';
import type { PrivateUser } from './users.js';
import type { MoneyHistoryEntry } from './wallet.js';
import type { WishlistView } from './wishlists.js';
import { ACCOUNT_PASSWORD_REQUIRED } from './texts.js';

/**
 * Data export and account deletion (issue 14). The export is what the user's own answers show
 * them, gathered in one file: the same presenters, so a giver anonymous to them stays anonymous.
 */

/** POST /api/account/delete: the account's password confirms it. */
export const DeleteAccountBody = z.object({
  password: z.string({ error: ACCOUNT_PASSWORD_REQUIRED }).min(1, ACCOUNT_PASSWORD_REQUIRED).max(1024, ACCOUNT_PASSWORD_REQUIRED),
});
export type DeleteAccountRequest = z.input<typeof DeleteAccountBody>;

/** One conversation of the export: the other party as the user sees it, and the messages the user sent in it. */
export interface ExportedConversation {
  conversation: ConversationView;
  messagesYouSent: MessageView[];
}

/** GET /api/account/export: a JSON attachment `giftlink-data-{username}-{date}.json`. */
export interface AccountExport {
  format: 'giftlink-data-export';
  version: 1;
  exportedAt: string;
  profile: PrivateUser;
  links: LinkView[];
  wishlist: WishlistView;
  conversations: ExportedConversation[];
  notifications: NotificationView[];
  invites: InviteView[];
  orders: OrdersResponse;
  moneyHistory: MoneyHistoryEntry[];
}

/** The answer to a closed account: it is gone, and its session with it. */
export interface DeleteAccountResponse {
  closed: true;
}
