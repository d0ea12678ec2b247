/**
 * The product's numbers (PRODUCT.md §9, §5's field limits and the API's own bounds),
 * written once for the API and the renderer. Plain values: no imports, safe in any bundle.
 * Amounts are integer cents unless the name says otherwise.
 */

// ---- lists --------------------------------------------------------------------------------------

/** Links come 25 to a page (feed and profile); a full page means there may be more. */
export const LINK_PAGE_SIZE = 25;
/** Messages come 25 to a page, newest page first; a full page means there may be more. */
export const MESSAGE_PAGE_SIZE = 25;
/** The inbox comes 25 conversations to a page, the most recently active first; a page asks for at most 100. */
export const INBOX_PAGE_SIZE = 25;
export const INBOX_PAGE_MAX = 100;
/** The response header of an inbox page that is full: the `cursor` of the page after it. */
export const INBOX_CURSOR_HEADER = 'X-Next-Cursor';
/** The feed fetches its next page once the reader has scrolled through this share of what is loaded (PRODUCT.md §9). */
export const INFINITE_SCROLL_TRIGGER = 0.8;
/** The highest page number a list accepts. */
export const MAX_PAGE = 100_000;

// ---- messages -----------------------------------------------------------------------------------

/** The longest message a member can send (the messages.text column holds 2000). */
export const MESSAGE_MAX_LENGTH = 2000;
/** A report's optional note. */
export const REPORT_NOTE_MAX_LENGTH = 500;
/** Why a message or a conversation is reported, in the order the report dialog lists them. */
export const REPORT_REASONS = ['harassment', 'spam', 'hate', 'self-harm', 'other'] as const;
/** How many of a conversation's last messages a conversation report keeps. */
export const REPORT_CONTEXT_MESSAGES = 20;
/** How many missed messages one `missed-messages` answer carries at most. */
export const MISSED_MESSAGES_LIMIT = 500;
/** The inbox shows at most this many characters of the last message. */
export const PREVIEW_LENGTH = 69;

// ---- links and money ----------------------------------------------------------------------------

/** How many times one currency link can be used at most. */
export const MAX_LINK_QUANTITY = 1000;
/** The link page's quick give amounts, in dollars: $1, $5, $10. */
export const QUICK_AMOUNTS = [1, 5, 10] as const;
/** A deposit, withdrawal, give or link amount is at least $1… */
export const MIN_AMOUNT_CENTS = 100;
/** …and under $1,000,000. */
export const MAX_AMOUNT_CENTS_EXCLUSIVE = 100_000_000;
/** The weekly subscription: $1.99 a week. */
export const SUBSCRIPTION_PRICE_CENTS = 199;
/** PRODUCT.md §9: the one product's fixed id, never shown (also exported by subscriptions.ts; here so the renderer may import it). */
export const SUBSCRIPTION_PRODUCT_ID = 'giftlink-weekly';

// ---- wishlists and the catalogue ----------------------------------------------------------------

/** A wishlist holds at most seven items. */
export const WISHLIST_MAX = 7;
/** The longest catalogue search. */
export const SEARCH_MAX_LENGTH = 100;

// ---- accounts (registration and settings) -------------------------------------------------------

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 15;
export const EMAIL_MIN_LENGTH = 5;
/** At registration; a settings edit may hold up to EDIT_FIELD_MAX_LENGTH. */
export const EMAIL_MAX_LENGTH = 35;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 35;
/** Every text field of the settings page. */
export const EDIT_FIELD_MAX_LENGTH = 40;

// ---- shipping addresses and orders ----------------------------------------------------------------

/** The longest address line, name, city or region; postal codes are shorter. */
export const ADDRESS_FIELD_MAX = 100;
export const POSTAL_CODE_MAX = 16;
/** An item gift waits this many days for its recipient's shipping address, then goes back to the giver. */
export const ORDER_ADDRESS_WAIT_DAYS = 14;
/** The countries an address may name: ISO 3166-1 alpha-2, every assigned code. */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
