/**
 * The texts people read: the product's validation and error texts (PRODUCT.md §2, §5 and §8, as
 * written, misspellings included) and the API's own error messages, written once for the API
 * and the renderer. Plain strings, safe in any bundle.
 */
import { MESSAGE_MAX_LENGTH, WISHLIST_MAX } from './limits.js';
import { grouped } from './money.js';
import type { ReportReason } from './reports.js';

// ---- shared -------------------------------------------------------------------------------------

export const SERVER_ERROR = 'Server error. Please try again later.';
export const NETWORK_ERROR = 'Network error. Please check your connection.';
export const UNAVAILABLE = 'Giftlink is briefly unavailable. Please try again in a moment.';

// ---- login and registration ---------------------------------------------------------------------

/** The login page's card, in the app and in the server's markup of it (sharing/pages.tsx). */
export const LOGIN_TITLE = 'Welcome to Giftlink';
export const LOGIN_TAGLINE = 'Receive gifts from people who love you';
export const INCORRECT_LOGIN = 'Incorrect login information';
export const DUPLICATE_ACCOUNT = 'Username or Email already exists.';
export const REGISTER_FAILED = 'An error occurred when trying to register. Please try again later.';
/** The confirm field's validity message while the two passwords differ. */
export const PASSWORDS_DO_NOT_MATCH = 'passwords do not match';

// ---- invites ------------------------------------------------------------------------------------

export const INVITE_MEMBER = "You already have an account. Send this invite to someone who doesn't";
export const INVITE_INVALID = 'Invalid or expired invite link.';
export const INVITE_CHECK_FAILED = 'An error occurred while validating the invite link.';
export const INVITE_MISSING = 'No invite provided.';
export const INVITE_FETCH_FAILED = 'An error occured when fetching invites. Please try again later.';
export const INVITE_COPY_FAILED = 'An error occured copying the invite. Please try again later.';
/** Registering through someone's link (`via`) when their setting is off or no invite of theirs is free. */
export const JOIN_UNAVAILABLE = 'No invite is available through this link right now. Ask the person who shared it for an invite link.';
/** The join setting (Settings and the create-link form). */
export const LET_VISITORS_JOIN = 'Let people who open my links join Giftlink';

// ---- feed and links -----------------------------------------------------------------------------
/** The home page's hero, in the app and in the server's markup of it (sharing/pages.tsx). */
export const HOME_HEADLINE = 'Receive gifts from people who love you';
export const HOME_INTRO = 'Create a link to ask for or give money or an item, then share it on Instagram, X or Messages.';
export const HOME_FEED_TITLE = 'Latest links';
export const FEED_LOADING = 'Loading links';

export const FEED_ERROR = 'An error occured when fetching links. Please try again later.';
export const LINK_NOT_FOUND = 'Link not found';
export const LINK_GONE = 'Link is no longer available.';
/** A link page that failed to load without a message of the server's. */
export const LINK_LOAD_FAILED = 'An error occurred';
export const ALREADY_USED = "you can't use this link more than once";
/** The "has this user used the link" check answered 500. */
export const RESPONDED_CHECK_FAILED = 'An error occurred. Please try again later.';
export const ACCEPT_FAILED = 'An error occured when trying to use this link. Please try again later.';
export const GIVE_FAILED = 'Failed to update post and balance';
export const OWN_POST = 'You cannot give to your own post!';
/** Taking back an open give link (the owner's link card and DELETE /api/links/{linkId}). */
export const CANCEL_LINK = 'Cancel link';
export const CANCEL_LINK_TITLE = 'Cancel this link?';
export const CANCEL_LINK_BODY = 'Nobody can use it after this. What is left of it goes back to your balance.';
export const CANCEL_LINK_CONFIRM = 'Yes, cancel it';
export const CANCEL_LINK_KEEP = 'Keep it';
export const CANCEL_LINK_FAILED = 'The link could not be cancelled. Please try again.';
export const CANCEL_NOT_YOURS = 'You can only cancel your own link.';
export const LINK_CANCELLED = 'Link cancelled';
export const LINK_CANCELLED_BODY = 'You ended it early. What was left went back to your balance.';
export const QUANTITY_REQUIRED = 'Please enter how many times this link can be used';
/** A gift to a group gift (receive currency link) larger than what is left of its goal. */
export const overGoal = (left: string) => `Only ${left} is left to give.`;
export const INCOMPLETE_LINK = 'Choose give or receive, currency or item, and an amount or an item.';
export const ONE_ACTIVE_LINK = 'You already have an active link. You can hold one active link at a time.';
export const COPY_OK = 'Link copied to clipboard!';
export const COPY_FAILED = 'Could not copy link. Please try again later.';
export const STORIES_ON_DESKTOP = 'Cannot share stories on desktop, please continue on your phone.';

// ---- money --------------------------------------------------------------------------------------

/** Any amount outside $1 … $999,999.99 or with more than two decimals. */
export const INVALID_AMOUNT = 'Please enter a valid amount above $1';
/** A give or a purchase the balance does not cover. */
export const ADD_MONEY = 'Add money to your account balance.';
/** Any failed deposit or withdrawal (the API's overdraft error too). */
export const MONEY_MOVE_FAILED = 'You cannot withdraw more than what is in your account.';

/** The money history's kinds of movement, with their names on the page and in the CSV. */
export const MONEY_HISTORY_KINDS = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  gift_given: 'Gift given',
  gift_received: 'Gift received',
  link_escrow: 'Link escrow',
  escrow_returned: 'Escrow returned',
  purchase: 'Purchase',
  refund: 'Refund',
  subscription: 'Subscription charge',
  dispute: 'Card payment disputed',
  gift_returned: 'Gift returned',
  other: 'Other',
} as const;
/** Who gave a gift whose giver stays hidden, in the money history. */
export const ANONYMOUS_GIVER = 'Anonymous';
export const MONEY_HISTORY_ERROR = 'Your money history could not be loaded.';
export const MONEY_HISTORY_EMPTY = 'No money has moved yet. Deposits, gifts and purchases will show here.';
export const MONEY_HISTORY_EMPTY_KIND = 'None of these yet. Choose Everything to see all your movements.';
/** The balance could not be re-read after money moved. */
export const BALANCE_REFRESH_ERROR = 'error updating the balance, please try again later.';

// ---- catalogue and wishlists --------------------------------------------------------------------

/** A search containing an adult or profane term. */
export const BLOCKED_QUERY_MESSAGE = 'Haha noo...';
/** A search that failed without a message of the server's. */
export const SEARCH_FAILED = 'An error occurred';
/** A search that failed before any answer. */
export const SEARCH_UNEXPECTED = 'An unexpected error occurred';
export const WISHLIST_LOAD_ERROR = 'An errror occured when trying to load this wishlist. Please try again later.';
export const ITEM_INFO_ERROR = "There was an error loading this item's information. Please try again later.";
export const SHIPPING_ERROR = 'Item shipping options are missing or malformed. Please try again later.';
export const TOO_MANY_ITEMS = `A wishlist can hold at most ${WISHLIST_MAX} items.`;
export const OWN_ITEM = 'You cannot buy an item from your own wishlist.';
export const ALREADY_PURCHASED = 'This item has already been purchased.';
export const ITEM_NOT_FOUND = 'This item is not on the wishlist.';
export const USER_NOT_FOUND = 'User not found';
export const NOT_PURCHASED = 'This item has not been purchased.';
export const ARCHIVE_NOT_PURCHASED = 'Only a purchased item can be moved to Received.';
/** A gift message as its giver reads it ('You gave $5.00', 'You gave Teddy bear'); the recipient reads the message's own text. */
export const youGave = (what: string | null) => `You gave ${what ?? 'a gift'}`;
export const WISHLIST_BUSY = 'The wishlist changed while saving. Please try again.';

// ---- profile, notifications and messages --------------------------------------------------------

export const UPLOAD_FAILED = 'Failed to upload image, try a smaller file.';
export const UPLOAD_NOT_AN_IMAGE = 'Only PNG and JPEG images can be uploaded.';
export const MARK_READ_ERROR = 'An error occurred when trying to mark notifications read. Please try again later.';
/** A 400 for an inbox cursor this API did not answer (or one altered since). */
export const INBOX_CURSOR_INVALID = 'cursor: must be a cursor this inbox answered';
export const CONVERSATIONS_ERROR = 'An error occured when fetching conversations. Please try again later.';
export const MESSAGES_ERROR = 'An error occured when fetching messages. Please try again later.';
export const SEND_ERROR = 'An error occured when sending your message. Try again later.';
export const FIND_CONVERSATION_ERROR =
  'An error occured when fetching conversation. You may not be able to see the message send in real time.';
export const IMAGE_CACHE_ERROR = 'Could not save images locally. Wishlist images may not save properly.';

// ---- subscription -------------------------------------------------------------------------------

export const SUBSCRIBE_LOGIN = 'Please log in to subscribe.';
export const PAYMENT_STATUS_UNCLEAR = 'Payment processing completed, but status is unclear. Please contact support.';
/** A card payment the bank or the provider's risk check refused as likely fraud. */
export const CARD_BLOCKED =
  'This payment was blocked because it looks risky. Your card was not charged. Please use another card or contact your bank.';
/** Card payments stopped for a while after too many declines. */
export const CARD_PAYMENTS_LOCKED = 'Card payments are paused on your account after several declined cards. Please try again later.';
/** Too many card payments in a short time (per account, card or device). */
export const CARD_PAYMENTS_LIMITED = 'Too many card payments in a short time. Please wait a while and try again.';
/** The card authorisation a gift was to be paid with is no longer usable. */
export const CARD_HOLD_GONE = 'This card payment expired before the gift was sent. Your card was not charged. Please try again.';
/** A deposit refused because the account is closed or being closed. */
export const ACCOUNT_CLOSED_NO_DEPOSIT = 'This account is closed: no payment can be made into it.';
export const PAYMENT_INCOMPLETE = 'Payment setup is incomplete. Please try again.';
/** The notification when a renewal from the balance cannot be paid (the subscription is then past due). */
export const SUBSCRIPTION_RENEWAL_FAILED = 'Your subscription payment failed: add money to your balance to keep your benefits.';

// ---- shipping addresses and orders ----------------------------------------------------------------

/** The notification that asks a recipient without an address for one. */
export const ADDRESS_ASK_TITLE = 'Add your shipping address';
export const addressAsk = (item: string) => `Add your shipping address so we can send you ${item}.`;
/** The giver's notification when an item gift went back to them (names nobody). */
export const orderRefunded = (item: string, amount: string) =>
  `Your gift ${item} could not be delivered, so ${amount} went back to your balance.`;
/** The recipient's notifications as their gift moves on (from Giftlink, naming the item only). */
export const orderMovedToRecipient = (item: string, to: 'shipped' | 'delivered') =>
  to === 'shipped' ? `Your gift ${item} has shipped.` : `Your gift ${item} has arrived.`;
/** The giver's notification when what they gave has arrived (names nobody). */
export const orderDeliveredToGiver = (item: string) => `The ${item} you gave has arrived.`;
export const ADDRESS_NAME_REQUIRED = 'Please enter the name to ship to.';
export const ADDRESS_LINE1_REQUIRED = 'Please enter a street address.';
export const ADDRESS_CITY_REQUIRED = 'Please enter a city.';
export const ADDRESS_COUNTRY_INVALID = 'Please choose a country.';
export const ADDRESS_POSTAL_REQUIRED = 'Please enter a postal code.';
export const addressPostalInvalid = (country: string) => `That postal code does not look right for ${country}.`;
export const ADDRESS_FIELD_TOO_LONG = 'That is too long for an address field.';
export const ADDRESS_NOT_FOUND = 'You have not saved a shipping address.';
export const ADDRESS_SAVE_ERROR = 'Your address could not be saved. Please try again later.';
export const ORDERS_ERROR = 'Your orders could not be loaded. Please try again later.';

// ---- blocking ---------------------------------------------------------------------------------------

/**
 * What a blocked person's send gets (HTTP and socket alike): neutral, never 'blocked', and the same
 * as any message that cannot be delivered.
 */
export const MESSAGE_UNDELIVERABLE = 'This message could not be delivered.';
/** A blocked person's wishlist purchase: says nothing about why. */
export const ITEM_UNAVAILABLE = 'This item cannot be bought right now.';
/** How Settings names a blocked anonymous giver; `date` is the conversation's start. */
export const blockedAnonymous = (date: string) => `Anonymous giver (conversation of ${date})`;
export const BLOCK_CONFIRM =
  'Block this person? They will not be able to message you, use your links or buy from your wishlist, and you will not be notified of them. They are not told. You can unblock them in Settings.';
export const BLOCK_DONE = 'Blocked. You can unblock them in Settings.';
export const BLOCK_FAILED = 'Could not block this person. Please try again later.';
export const BLOCKS_ERROR = 'Your blocked people could not be loaded. Please try again later.';
export const UNBLOCK_FAILED = 'Could not unblock. Please try again later.';
export const NO_BLOCKS = 'You have not blocked anyone.';

// ---- desktop app ----------------------------------------------------------------------------------

/** The 426 answer's message to a desktop app older than the API supports, shown with the download link. */
export const DESKTOP_UPGRADE_REQUIRED = 'Please update Giftlink to keep using it.';
export const DESKTOP_DOWNLOAD_LINK = 'Download the new version';

// ---- reports, suspension and the abuse filter -------------------------------------------

/** The whole answer to a report. */
export const REPORT_THANKS = "Thanks, we'll look into it.";
/** The report dialog's label of each reason (contract/limits.ts REPORT_REASONS). */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  harassment: 'Harassment or bullying',
  spam: 'Spam or scam',
  hate: 'Hate speech',
  'self-harm': 'Self-harm or suicide',
  other: 'Something else',
};
export const REPORT_REASON_REQUIRED = 'Please choose a reason.';
export const REPORT_OWN_MESSAGE = 'You cannot report your own message.';
export const REPORT_ERROR = 'Your report could not be sent. Please try again later.';
/** Past REPORTS_PER_HOUR (moderation/service.ts): the 429's text, with Retry-After. */
export const REPORTS_TOO_QUICKLY = 'You have sent a lot of reports in the last hour. Please wait a while before sending another.';
/** A suspended account's login (403). */
export const ACCOUNT_SUSPENDED = 'This account is suspended.';
/** A message or bio the abuse filter refuses (400), never altered. */
export const MESSAGE_NOT_ALLOWED = "Your message contains words we don't allow.";
/** A gift's note over the message limit, or with a slur (400): nothing is given. */
// Not toLocaleString: an Intl formatter on a visitor's first page costs a long task.
export const NOTE_TOO_LONG = `A note can be at most ${grouped(String(MESSAGE_MAX_LENGTH))} characters.`;
export const NOTE_NOT_ALLOWED = "Your note contains words we don't allow.";
export const BIO_NOT_ALLOWED = "Your bio contains words we don't allow.";
/** A username, display name or location with a slur (api/src/text-filter.ts). */
export const NAME_NOT_ALLOWED = "Your name contains words we don't allow.";
/** Password reset: the forgot-password answer, the same whether the address has an account or not… */
export const RESET_LINK_SENT = 'If an account uses that email, we sent a link to reset its password.';
/** …an unknown, used or expired reset link (400)… */
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired.';
/** …and a reset that worked: every session of the account has ended. */
export const PASSWORD_RESET_DONE = 'Your password has been changed and you have been signed out everywhere. Log in with your new password.';

// ---- data export and account deletion ---------------------------------------------------

export const DOWNLOAD_MY_DATA = 'Download my data';
export const DOWNLOAD_MY_DATA_HINT =
  'A JSON file of your profile, links, wishlist, messages you sent, notifications, invites, orders and money history.';
export const EXPORT_FAILED = 'Your data could not be downloaded. Please try again later.';
/** The export's file name: `giftlink-data-{username}-{YYYY-MM-DD}.json` (the UTC date). */
export const exportFileName = (username: string, now: Date) => `giftlink-data-${username}-${now.toISOString().slice(0, 10)}.json`;
export const DELETE_MY_ACCOUNT = 'Delete my account';
export const DELETE_ACCOUNT_HINT =
  'Your profile, pictures, links and wishlist are erased and your messages read "Deleted message". Money history is never erased: its entries stay, pointing to a closed account. This cannot be undone.';
/** The data export's list of what closing the account keeps, and why; everything else is erased. */
export const KEPT_AFTER_CLOSING: readonly { what: string; why: string }[] = [
  {
    what: 'Your account, with no name, email, password or pictures, and no way to sign in',
    why: 'Your money history points to it. Its username is freed after 30 days.',
  },
  {
    what: 'Your money history: deposits, gifts, purchases, withdrawals and refunds',
    why: 'The law requires payment records to be kept, and other people’s balances depend on them.',
  },
  {
    what: 'The payment provider’s record of each card payment and withdrawal (amount and date, not your card)',
    why: 'The law requires it, and it is checked against the money history.',
  },
  {
    what: 'Orders of gifts you gave or received, with the delivery address of each',
    why: 'The law requires sales records to be kept, and a late refund is paid from them.',
  },
  {
    what: 'Messages you sent as an anonymous giver',
    why: 'The person you gave to keeps their conversation as it was, and cannot tell that you closed your account.',
  },
  { what: 'Reports about messages you sent or received', why: 'Moderators need them to keep people safe.' },
];
export const DELETE_ACCOUNT_CONFIRM = 'Enter your password to delete your account.';
export const ACCOUNT_PASSWORD_REQUIRED = 'Please enter your password.';
/** A wrong password when deleting the account (403). */
export const ACCOUNT_PASSWORD_WRONG = 'That password is not correct.';
/** A sent message of a closed account, as the other person reads it from then on. */
export const DELETED_MESSAGE = 'Deleted message';
/** Deletion refused (409) while the balance is above zero. */
export const withdrawBalanceFirst = (amount: string) => `Withdraw your balance of ${amount} first (Balance → Withdraw).`;
/** Deletion refused (409) while a give link holds escrow. */
export const giveLinkHoldsEscrow = (amount: string) =>
  `Your give link still holds ${amount}: it returns to your balance when it expires or is used up.`;
/** Deletion refused (409) while a deposit or withdrawal is still waiting on the payments provider. */
export const PAYMENT_STILL_PENDING = 'A deposit or withdrawal of yours is still being processed. Try again once it is done.';
export const DELETE_ACCOUNT_FAILED = 'Your account could not be deleted. Please try again later.';
export const GOODBYE_TITLE = 'Your account is deleted';
export const GOODBYE_TEXT = 'Thank you for using Giftlink. Your account and personal details are gone.';

// ---- signed-in sessions -----------------------------------------------------------------

/** A session id that is not one of the user's own live sessions (404). */
export const SESSION_NOT_FOUND = 'That session has already ended.';
export const SESSIONS_LOAD_FAILED = 'Your sessions could not be loaded. Please try again later.';

// ---- presence and sign-in changes in Settings --------------------------------------------------------

export const SHOW_PRESENCE = "Show when I'm online";
export const SHOW_PRESENCE_HINT = 'People you talk with by name will see when you are online.';
export const CURRENT_PASSWORD = 'Current password';
/** A new email or password without `currentPassword` (400); a wrong one is ACCOUNT_PASSWORD_WRONG (403). */
export const CURRENT_PASSWORD_REQUIRED = 'Please enter your current password to change your email or password.';

// ---- alerts (email now, push later: api/src/alerts/rules.ts) ------------------------------------

/** Settings → Notifications: each kind's row. */
export const ALERT_LABELS = {
  gift: 'Gifts you receive',
  message: 'Messages while you are away',
  order_shipped: 'An order shipped',
  order_delivered: 'An order arrived',
  order_address: 'An order waits for your address',
  subscription_renewed: 'Subscription renewed',
  subscription_renews_soon: 'Subscription renews tomorrow',
  subscription_failed: 'Subscription renewal failed',
  password_changed: 'Password changed',
  email_changed: 'Email changed',
  new_sign_in: 'New sign-in',
} as const;
/** Each kind's email: the subject and its one line. The same words whoever caused it (no names, no amounts). */
export const ALERT_GIFT_SUBJECT = 'You received a gift on Giftlink';
export const ALERT_GIFT_BODY = 'Someone sent you a gift. Open the conversation to see it.';
export const alertMessagesSubject = (count: number) => (count === 1 ? 'A new message on Giftlink' : `${count} new messages on Giftlink`);
export const alertMessagesBody = (count: number) =>
  count === 1
    ? 'You have a new message. Open the conversation to read it.'
    : `You have ${count} new messages. Open the conversation to read them.`;
export const ALERT_ORDER_SHIPPED_SUBJECT = 'Your gift has shipped';
export const ALERT_ORDER_SHIPPED_BODY = 'An item gift to you is on its way.';
export const ALERT_ORDER_DELIVERED_SUBJECT = 'A gift order arrived';
export const ALERT_ORDER_DELIVERED_BODY = 'An item gift order has been delivered.';
export const ALERT_ORDER_ADDRESS_SUBJECT = 'Your gift needs a shipping address';
export const ALERT_ORDER_ADDRESS_BODY = 'An item gift to you is waiting for your address. Add it in Settings to have it sent.';
export const ALERT_RENEWED_SUBJECT = 'Your Giftlink subscription renewed';
export const ALERT_RENEWED_BODY = 'Your weekly subscription renewed for another week.';
export const ALERT_RENEWS_SOON_SUBJECT = 'Your Giftlink subscription renews tomorrow';
export const ALERT_RENEWS_SOON_BODY =
  'Your weekly subscription renews tomorrow. To cancel, open Manage Subscription and choose Cancel before then.';
export const ALERT_FAILED_SUBJECT = 'Your Giftlink subscription could not renew';
export const ALERT_FAILED_BODY = 'The renewal could not be paid, so the subscription benefits are off. Open Manage Subscription to renew.';
export const ALERT_PASSWORD_SUBJECT = 'Your Giftlink password was changed';
export const ALERT_PASSWORD_BODY = 'Your password was just changed. If this was not you, reset your password now.';
export const ALERT_EMAIL_SUBJECT = 'Your Giftlink email was changed';
export const ALERT_EMAIL_BODY = 'The email of your account was just changed. If this was not you, reset your password now.';
export const ALERT_SIGN_IN_SUBJECT = 'A new sign-in to your Giftlink account';
export const ALERT_SIGN_IN_BODY = 'Your account was signed in to from a new device. If this was not you, change your password now.';
export const ALERT_OPEN = 'Open Giftlink';
export const ALERT_WHY = 'You get this email because of your Giftlink notification settings.';
export const ALERT_UNSUBSCRIBE = 'Turn these emails off';
export const ALERT_SECURITY_WHY = 'Security emails are always sent.';
export const ALERT_UNSUBSCRIBE_CONFIRM = 'Stop these emails?';
export const ALERT_UNSUBSCRIBED = 'Done: these emails are off. You can turn them on again in Settings → Notifications.';
export const ALERT_UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid.';
export const ALERT_LOCKED = 'Security notifications cannot be turned off.';
export const PUSH_BAD_ENDPOINT = 'This push service address is not allowed: it must be an https address on the public internet.';
export const PUSH_SUBSCRIPTION_NOT_FOUND = 'That device is no longer subscribed.';
export const ALERT_PREFERENCES_TITLE = 'Notifications';
export const ALERT_PREFERENCES_HINT = 'Where Giftlink tells you about things while the app is closed.';
export const ALERT_PREFERENCES_LOAD_FAILED = 'Your notification settings could not be loaded. Please try again later.';
export const ALERT_ALWAYS_ON = 'Always on';

// Payouts, money on hold, disputes and returned gifts: their own file, every text still importable from here.
export * from './money-out-texts.js';

// Pausing gifts: the link and the wishlist stay up, but take no gifts until their owner resumes.
export const GIFTS_PAUSED = 'Paused: not taking gifts right now';
