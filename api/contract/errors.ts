/**
 * Every error code the API answers (`{ error, message }`, over HTTP and on the socket), with the
 * HTTP statuses it comes with and, where PRODUCT.md fixes it, the text people read. AppError
 * (api/src/errors.ts) takes only these codes; the renderer reads the same list. Plain values, no zod.
 */
import {
  ACCOUNT_CLOSED_NO_DEPOSIT,
  ALREADY_USED,
  CARD_BLOCKED,
  CARD_HOLD_GONE,
  CARD_PAYMENTS_LIMITED,
  CARD_PAYMENTS_LOCKED,
  DUPLICATE_ACCOUNT,
  GIFTS_PAUSED,
  INCORRECT_LOGIN,
  ITEM_INFO_ERROR,
  OWN_POST,
  PAYMENT_INCOMPLETE,
  PAYMENT_STATUS_UNCLEAR,
  PAYOUTS_NOT_READY,
  PAYOUTS_NOT_SET_UP,
  SERVER_ERROR,
  SHIPPING_ERROR,
} from './texts.js';
import { UNDER_AGE } from './account-texts.js';

interface ErrorEntry {
  /** The status, or the statuses, it is answered with. */
  readonly status: number | readonly number[];
  /** The text PRODUCT.md gives it: every answer with this code carries exactly this message. */
  readonly text?: string;
}

export const ERRORS = {
  // ---- any route: the request itself --------------------------------------------------------------
  validation_failed: { status: 400 },
  /** A request the framework could not read; it keeps the framework's 4xx status. */
  bad_request: { status: 400 },
  malformed_body: { status: 400 },
  invalid_text: { status: 400 },
  invalid_characters: { status: 400 },
  unknown_method: { status: 400 },
  unauthorized: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  request_timeout: { status: 408 },
  gone: { status: 410 },
  too_large: { status: [413, 400] },
  unsupported_media_type: { status: 415 },
  upgrade_required: { status: 426 },
  rate_limited: { status: 429 },
  headers_too_large: { status: 431 },
  internal: { status: 500, text: SERVER_ERROR },
  /** The socket's name for `internal`. */
  server_error: { status: 500, text: SERVER_ERROR },
  not_implemented: { status: 501 },
  /** PostgreSQL or Redis cannot be reached for the moment: nothing was done, try again shortly. */
  unavailable: { status: 503 },

  // ---- accounts ------------------------------------------------------------------------------------
  incorrect_login: { status: 400, text: INCORRECT_LOGIN },
  duplicate_account: { status: 400, text: DUPLICATE_ACCOUNT },
  /** Registration refused below ADULT_AGE (api/contract/auth.ts). */
  under_age: { status: 403, text: UNDER_AGE },
  invalid_invite: { status: 400 },
  invite_unavailable: { status: 400 },
  invalid_reset_link: { status: 400 },
  /** An alert email's unsubscribe link whose signature does not check out. */
  invalid_unsubscribe_link: { status: 400 },
  /** A security alert kind cannot be turned off. */
  alert_locked: { status: 400 },
  /** A push subscription whose endpoint is not an https address on the public internet. */
  bad_push_endpoint: { status: 400 },
  current_password_required: { status: 400 },
  wrong_password: { status: 403 },
  account_suspended: { status: 403 },
  /** Closing the account is refused while it still holds money or owes a renewal. */
  balance_held: { status: 409 },
  escrow_held: { status: 409 },
  /** A withdrawal above what is available: the rest of the balance is still on hold. */
  funds_on_hold: { status: 400 },
  /** A give, purchase or withdrawal while a disputed card payment is still owed. */
  balance_owed: { status: 402 },
  /** A gift returned only while it is still on hold and unspent. */
  gift_not_returnable: { status: 400 },
  /** A gift already returned or reversed. */
  gift_settled: { status: 409 },
  subscription_renewing: { status: 409 },
  bad_upload: { status: 400 },
  missing_file: { status: 400 },
  abusive_text: { status: 400 },
  own_message: { status: 400 },

  // ---- links and gifts -----------------------------------------------------------------------------
  incomplete_link: { status: 400 },
  quantity_required: { status: 400 },
  one_active_link: { status: 400 },
  over_goal: { status: 400 },
  already_used: { status: 400, text: ALREADY_USED },
  not_a_give_link: { status: 400 },
  not_a_receive_link: { status: 400 },
  own_post: { status: 400, text: OWN_POST },

  // ---- money ---------------------------------------------------------------------------------------
  /** 400 from the balance, 402 from a card. */
  insufficient_funds: { status: [400, 402] },
  invalid_amount: { status: 400 },
  amount_too_large: { status: 400 },
  invalid_idempotency_key: { status: 400 },
  idempotency_key_reused: { status: 422 },
  idempotency_key_in_progress: { status: 409 },
  idempotency_conflict: { status: 409 },
  payment_declined: { status: 402 },
  payment_method_required: { status: 402 },
  card_declined: { status: 402 },
  invalid_card: { status: 400 },
  card_not_charged: { status: 402 },
  /** The card's bank or the provider's risk check blocked the payment as likely fraud. */
  card_blocked: { status: 402, text: CARD_BLOCKED },
  /** Card payments refused for a while: too many, or too many declines. */
  card_payments_locked: { status: 429, text: CARD_PAYMENTS_LOCKED },
  card_payments_limited: { status: 429, text: CARD_PAYMENTS_LIMITED },
  /** A card authorisation the gift was to be paid with is gone (cancelled or already used). */
  card_hold_gone: { status: 409, text: CARD_HOLD_GONE },
  /** A deposit for an account that is closed or closing. */
  account_closed: { status: 409, text: ACCOUNT_CLOSED_NO_DEPOSIT },
  no_saved_card: { status: 400 },
  payout_failed: { status: 502 },
  /** A withdrawal before payouts are set up (Settings → Payouts). */
  payouts_not_ready: { status: 400, text: PAYOUTS_NOT_READY },
  payouts_restricted: { status: 400 },
  /** Changing the bank account before payouts are set up. */
  payouts_not_set_up: { status: 400, text: PAYOUTS_NOT_SET_UP },
  invalid_bank_account: { status: 400 },
  /** 502 while the provider has not confirmed a payment; 409 when it blocks closing the account. */
  payment_pending: { status: [502, 409] },
  payment_provider_error: { status: 502 },
  payment_setup_incomplete: { status: 502, text: PAYMENT_INCOMPLETE },
  payment_incomplete: { status: [400, 402], text: PAYMENT_INCOMPLETE },
  payment_processing: { status: 409, text: PAYMENT_STATUS_UNCLEAR },
  unknown_payment_intent: { status: 400 },
  unknown_subscription: { status: 400 },
  unknown_product: { status: 400 },
  already_subscribed: { status: 409 },
  not_subscribed: { status: 400 },
  subscription_resumable: { status: 409 },
  provider_changed: { status: 409 },
  bad_signature: { status: 400 },

  // ---- wishlists, catalogue, orders ----------------------------------------------------------------
  item_unavailable: { status: 400, text: ITEM_INFO_ERROR },
  shipping_unavailable: { status: 400, text: SHIPPING_ERROR },
  too_many_items: { status: 400 },
  not_purchased: { status: 400 },
  own_item: { status: 400 },
  already_purchased: { status: 409 },
  wishlist_busy: { status: 409 },
  blocked_query: { status: 400 },
  marketplace_unavailable: { status: 502 },
  invalid_address: { status: 400 },

  // ---- trust and safety ----------------------------------------------------------------------------
  /** A give, an accept or a purchase while the person it is for has paused their gifts. */
  gifts_paused: { status: 409, text: GIFTS_PAUSED },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** Every code, for a document or a check. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

type Statuses<S> = S extends readonly number[] ? S[number] : S;

/** The statuses `C` is answered with. */
export type ErrorStatus<C extends ErrorCode> = Statuses<(typeof ERRORS)[C]['status']>;

/** The codes answered with status `S`. */
export type ErrorCodeFor<S extends number> = { [C in ErrorCode]: S extends ErrorStatus<C> ? C : never }[ErrorCode];

/** The message `C` carries: its PRODUCT.md text when it has one, else any text. */
export type ErrorMessage<C extends ErrorCode> = (typeof ERRORS)[C] extends { text: infer T extends string } ? T : string;
