import { z } from 'zod';
import { PayoutsResponse } from './payouts.js';
import { isoTime } from './common.js';
import { ConversationView, MessageView } from './conversations.js';
import { InviteView } from './invites.js';
import { LinkView } from './links.js';
import { NotificationView } from './notifications.js';
import { OrdersResponse } from './orders.js';
import { PrivateUser } from './users.js';
import { MoneyHistoryEntry } from './wallet.js';
import { WishlistView } from './wishlists.js';
import { ACCOUNT_PASSWORD_REQUIRED } from './texts.js';

/**
 * Data export and account deletion. The export is what the user's own answers show
 * them, gathered in one file: the same presenters, so a giver anonymous to them stays anonymous.
 */

/** POST /api/account/delete: the account's password confirms it. */
export const DeleteAccountBody = z.object({
  password: z.string({ error: ACCOUNT_PASSWORD_REQUIRED }).min(1, ACCOUNT_PASSWORD_REQUIRED).max(1024, ACCOUNT_PASSWORD_REQUIRED),
});
export type DeleteAccountRequest = z.input<typeof DeleteAccountBody>;

/** One conversation of the export: the other party as the user sees it, and the messages the user sent in it. */
export const ExportedConversation = z.object({ conversation: ConversationView, messagesYouSent: z.array(MessageView) });
export type ExportedConversation = z.infer<typeof ExportedConversation>;

/** GET /api/account/export: a JSON attachment `giftlink-data-{username}-{date}.json`. */
export const AccountExport = z.object({
  format: z.literal('giftlink-data-export'),
  version: z.literal(1),
  exportedAt: isoTime,
  profile: PrivateUser,
  /** The year of birth given at registration, never the date; null for an account made before it was asked. */
  birthYear: z.number().int().nullable(),
  links: z.array(LinkView),
  wishlist: WishlistView,
  conversations: z.array(ExportedConversation),
  notifications: z.array(NotificationView),
  invites: z.array(InviteView),
  orders: OrdersResponse,
  moneyHistory: z.array(MoneyHistoryEntry),
  /** Where withdrawals go (Settings → Payouts): the status and the bank's last 4 digits, never more. */
  payouts: PayoutsResponse,
  /** What closing the account would keep, and why, in plain words (texts.ts KEPT_AFTER_CLOSING). */
  keptAfterClosing: z.array(z.object({ what: z.string(), why: z.string() })),
});
export type AccountExport = z.infer<typeof AccountExport>;

/** The answer to a closed account: it is gone, and its session with it. */
export const DeleteAccountResponse = z.object({ closed: z.literal(true) });
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponse>;
