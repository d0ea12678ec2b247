/** The texts of money leaving Giftlink: payouts, money on hold, disputes and returned gifts. */

// ---- payouts (Settings → Payouts) ---------------------------------------------------------------

/** A withdrawal before the user's payouts are set up (400). */
export const PAYOUTS_NOT_READY = 'Set up payouts in Settings before you withdraw.';
/** A withdrawal while Stripe has restricted the user's payouts account (400). */
export const PAYOUTS_RESTRICTED = 'Your payouts account is restricted. Open Settings → Payouts to see what Stripe needs.';
/** The sandbox's bank form with numbers that are not a routing and an account number (400). */
export const INVALID_BANK_ACCOUNT = 'Enter a 9-digit routing number and an account number of 4 to 17 digits.';
/** What Stripe asks for, in plain words, by the first part of its requirement key. */
const PAYOUT_REQUIREMENT_TEXTS: Record<string, string> = {
  external_account: 'Your bank account',
  tos_acceptance: "Accepting Stripe's terms",
  business_profile: 'What you do (a short description or a website)',
  individual: 'Your name, date of birth and address',
  'individual.verification': 'A photo of your ID',
  'individual.id_number': 'Your social security number',
  'individual.ssn_last_4': 'The last 4 digits of your social security number',
  business_type: 'Whether you are an individual or a company',
  company: 'Your company details',
};
/** A requirement no text above names. */
const PAYOUT_REQUIREMENT_OTHER = 'Other details Stripe asks for';

/** A requirement key in plain words: its longest known prefix's text. */
function requirementText(key: string): string {
  const parts = key.split('.');
  for (let n = parts.length; n > 0; n -= 1) {
    const text = PAYOUT_REQUIREMENT_TEXTS[parts.slice(0, n).join('.')];
    if (text) return text;
  }
  return PAYOUT_REQUIREMENT_OTHER;
}

/** What the provider asks for, in plain words, each once. */
export const requirementTexts = (keys: readonly string[]): string[] => [...new Set(keys.map(requirementText))];
export const PAYOUTS_TITLE = 'Payouts';
export const PAYOUTS_INTRO = 'Withdrawals go to your bank account, set up once through Stripe.';
export const PAYOUTS_NOT_STARTED = 'Payouts are not set up yet.';
export const PAYOUTS_DETAILS_NEEDED = 'Stripe needs a few more details before you can withdraw:';
export const payoutsReady = (last4: string | undefined) =>
  last4 ? `Ready: withdrawals go to your bank account ending ${last4}.` : 'Ready: withdrawals go to your bank account.';
export const PAYOUTS_RESTRICTED_STATUS = 'Stripe has restricted your payouts. Update your details to withdraw again.';
export const PAYOUTS_SET_UP = 'Set up payouts';
export const PAYOUTS_CONTINUE = 'Continue setup';
export const PAYOUTS_UPDATE = 'Update details';
export const PAYOUTS_LOAD_FAILED = 'Your payouts could not be loaded. Please try again.';
export const PAYOUTS_START_FAILED = 'Payouts setup could not start. Please try again.';
/** The balance dialog's withdraw form while payouts are not ready. */
export const WITHDRAW_NEEDS_PAYOUTS = 'Withdrawals go to your bank account: set up payouts first.';
export const SANDBOX_BANK_TITLE = 'Add a test bank account';
export const SANDBOX_BANK_NOTE = "Sandbox — test mode. Use Stripe's test numbers: routing 110000000, account 000123456789.";
export const PAYOUTS_CHECKING = 'Checking your payouts with Stripe…';
export const SANDBOX_BANK_CHANGE_TITLE = 'Change your test bank account';
export const PAYOUTS_CHANGE_BANK = 'Change bank account';
export const PAYOUTS_DASHBOARD_FAILED = 'Your bank account settings could not be opened. Please try again.';
/** Changing the bank account before payouts are set up (400 `payouts_not_set_up`). */
export const PAYOUTS_NOT_SET_UP = 'Set up payouts first: there is no bank account to change yet.';
/** Why a bank refused a payout, by Stripe's payout `failure_code`, in a few plain words. */
const PAYOUT_FAILURE_REASONS: Record<string, string> = {
  account_closed: 'the bank account is closed',
  account_frozen: 'the bank account is frozen',
  bank_account_restricted: 'the bank account does not accept this kind of payment',
  bank_ownership_changed: 'the bank account changed owners',
  could_not_process: 'the bank could not process it',
  debit_not_authorized: 'the bank account does not accept payments from Stripe',
  declined: 'the bank declined it',
  incorrect_account_holder_address: "the account holder's address does not match the bank's",
  incorrect_account_holder_name: "the account holder's name does not match the bank's",
  incorrect_account_holder_tax_id: "the account holder's tax ID does not match the bank's",
  incorrect_account_type: 'the account type (checking or savings) is wrong',
  insufficient_funds: 'your Stripe balance was too low',
  invalid_account_number: 'the account number is wrong',
  invalid_account_number_length: 'the account number has the wrong number of digits',
  invalid_currency: 'the bank account cannot take US dollars',
  no_account: 'no bank account has that number',
  unsupported_card: 'the card cannot take payouts',
};
/** A refused payout with neither a known code nor a message from Stripe. */
const PAYOUT_FAILURE_OTHER = 'the bank gave no reason';
/** A payout's failure in plain words: ours for a known code, else Stripe's own message, else a generic one. */
export function payoutFailureReason(code: string | null, stripeMessage: string | null): string {
  const known = code ? PAYOUT_FAILURE_REASONS[code] : undefined;
  return known ?? (stripeMessage?.trim().replace(/\.+$/, '') || PAYOUT_FAILURE_OTHER);
}
/** Settings → Payouts after the bank refused a payout (`amount` formatted, `reason` from `payoutFailureReason`). */
export const payoutRefused = (amount: string, reason: string) =>
  `Your bank refused a payout of ${amount} (${reason}). The money waits at Stripe until you update your bank details.`;
const PAYOUT_STATES = { pending: 'on its way', paid: 'sent', failed: 'failed, returned to your balance' } as const;
/** A withdrawal's row in the money history: the bank it went to and the transfer's state. */
export const payoutLine = (last4: string | null, status: keyof typeof PAYOUT_STATES) =>
  `${last4 ? `To bank account ending ${last4}` : 'To your bank account'} · ${PAYOUT_STATES[status]}`;
/** A moment money is released, as a person reads it (UTC, so the server and every page say the same). */
export const releaseTime = (at: Date | string) =>
  `${new Date(at).toLocaleString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })} UTC`;
/** A withdrawal above what is available now (400 `funds_on_hold`). */
export const fundsOnHold = (available: string, when: string) =>
  `Only ${available} can be withdrawn now: the rest is on hold until ${when}.`;
export const AVAILABLE = 'Available';
export const onHoldUntil = (amount: string, when: string) => `${amount} on hold until ${when}`;
/** The balance dialog's line while a disputed card payment is owed. */
export const owedAfterDispute = (amount: string) => `You owe ${amount} after a disputed card payment: your next deposit covers it first.`;
/** In the thread of a gift a dispute took back: nothing names or tells apart who gave it. */
export const GIFT_REVERSED = "A gift was reversed by the card's bank.";
/** A give, purchase or withdrawal while a disputed card payment is still owed (402 `balance_owed`). */
export const balanceOwed = (amount: string) =>
  `A card payment of yours was disputed and ${amount} of it is still owed: add money to cover it before you give, buy or withdraw.`;
/** The recipient's button on a gift in an anonymous thread, and what the thread then says (from the recipient, to both). */
export const RETURN_GIFT = 'Return this gift';
export const GIFT_RETURNED = 'This gift was returned.';
export const RETURN_GIFT_CONFIRM = 'Return this gift? The money goes back to the person who gave it, and this cannot be undone.';
export const GIFT_NOT_FOUND = 'Gift not found';
export const ONLY_RECIPIENT_RETURNS = 'Only the person who received a gift can return it.';
export const GIFT_NOT_RETURNABLE = 'Only an anonymous gift still on hold, and not spent, can be returned.';
export const GIFT_SETTLED = 'This gift was already returned or reversed.';
export const RETURN_GIFT_FAILED = 'The gift could not be returned. Please try again.';
