import { z } from 'zod';
import { dollars, isoTime } from './common.js';
import { MAX_AMOUNT_CENTS_EXCLUSIVE } from './limits.js';
import { dollarsToCents, isValidAmountCents } from './money.js';
import { INVALID_AMOUNT, MONEY_HISTORY_KINDS } from './texts.js';

/**
 * An amount in dollars (a number or a numeric string), at least $1, under $1,000,000, with at
 * most two decimals. Parses to integer cents.
 */
export const amountSchema = z.unknown().transform((value, ctx): number => {
  const cents = dollarsToCents(value);
  if (!isValidAmountCents(cents)) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return cents;
});

const userIdSchema = z.string().min(1).max(64).optional();

/** POST /api/billing-settings-deposit: `balance` is the amount to add. */
export const DepositBody = z.object({ userId: userIdSchema, balance: amountSchema });

/** POST /api/billing-settings-withdrawal: `balance` is the amount to take out. */
export const WithdrawalBody = z.object({ userId: userIdSchema, balance: amountSchema });

/** A test card as the sandbox's form sends it (PAYMENTS=sandbox); never stored. */
export const SandboxCard = z.object({
  number: z.string().regex(/^[\d -]{12,23}$/, 'Please enter a valid card number.'),
  /** MM/YY */
  expiry: z.string().min(4).max(7),
  cvc: z.string().regex(/^\d{3,4}$/, 'Please enter the 3 or 4 digit security code (CVC).'),
});

/**
 * POST /api/wallet/card-deposit (an Idempotency-Key is required): charges a card for `amount` and
 * credits the balance. `card` is the card typed in the sandbox's form (`save` keeps it for next
 * time: its outcome and last 4 digits only); without `card` the saved card is charged. Answers
 * NewBalanceResponse; a declined card is 402 `card_declined` and nothing moves.
 *
 * With `elements: true` (PAYMENTS=stripe) the page confirms the card with Stripe Elements: the
 * answer is 202 CardDepositStarted, and nothing moves until POST /api/wallet/card-deposit/confirm
 * (or Stripe's webhook) finds the PaymentIntent paid. A repeat of the key answers the same
 * PaymentIntent (once it is paid: the deposit's NewBalanceResponse).
 */
/**
 * A gift's amount in dollars as cents: any positive amount under $1,000,000 with at most two
 * decimals. Less than $1 only to give exactly what a group gift has left: the link decides
 * (`isGiveAmountCents`, link-use.ts).
 */
export const giftAmountSchema = z.unknown().transform((value, ctx): number => {
  const cents = dollarsToCents(value);
  if (cents === undefined || cents < 1 || cents >= MAX_AMOUNT_CENTS_EXCLUSIVE) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return cents;
});

/**
 * What a card deposit pays for, so that every refusal the gift could meet is checked before the
 * card is touched: a give to a receive link (`amount` for a currency link), or a wishlist item.
 * With it (and a card typed in the sandbox's form, or the saved card) the card is only authorised:
 * the answer's `authorisation` goes with the give or purchase, which captures it where it lands.
 */
export const CardGiftTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('give'), postId: z.string().min(1).max(64), amount: giftAmountSchema.optional() }).strict(),
  z.object({ kind: z.literal('purchase'), wishlistUsername: z.string().min(1).max(64), itemId: z.string().min(1).max(100) }).strict(),
]);
export type CardGiftTarget = z.output<typeof CardGiftTarget>;

export const CardDepositBody = z
  .object({
    amount: amountSchema,
    card: SandboxCard.strict().optional(),
    elements: z.literal(true).optional(),
    save: z.boolean().optional(),
    for: CardGiftTarget.optional(),
  })
  .strict();
export type CardDepositRequest = z.input<typeof CardDepositBody>;

/** 202 to POST /api/wallet/card-deposit with `elements`: what Stripe.js confirms the card payment with. */
export const CardDepositStarted = z.object({ paymentIntentId: z.string(), clientSecret: z.string() });
export type CardDepositStarted = z.infer<typeof CardDepositStarted>;

/**
 * POST /api/wallet/card-deposit/confirm: the page confirmed the user's own PaymentIntent; the
 * server reads it from Stripe. Paid: 200 NewBalanceResponse (the deposit, credited once). Declined:
 * 402 `card_declined`; never paid: 402 `payment_incomplete`; the bank still deciding: 409
 * `payment_processing`. Another user's PaymentIntent, or none of ours: 404.
 */
export const ConfirmCardDepositBody = z.object({ paymentIntentId: z.string().min(1).max(255) }).strict();
export type ConfirmCardDepositRequest = z.input<typeof ConfirmCardDepositBody>;

/** GET /api/wallet/card: the card saved for deposits (last 4 digits), or null. */
export const SavedCardResponse = z.object({ card: z.object({ last4: z.string() }).nullable() });
export type SavedCardResponse = z.infer<typeof SavedCardResponse>;

/** DELETE /api/wallet/card: the saved card is gone, at the provider and here (none saved is the same answer). */
export const RemovedCardResponse = z.object({ card: z.null() });
export type RemovedCardResponse = z.infer<typeof RemovedCardResponse>;

/** What of a balance can be withdrawn now, and what waits (card money and gifts are held before they can leave). */
export const BalanceHolds = z.object({
  /** Dollars that can be withdrawn now. */
  available: dollars,
  /** Dollars on hold: they can be given or spent, not withdrawn yet. */
  onHold: dollars,
  /** When the first of what is on hold becomes available; null when nothing is. */
  nextReleaseAt: isoTime.nullable(),
  /** Dollars still owed after a disputed card payment: nothing can be given, bought or withdrawn until a deposit covers it. */
  owed: dollars,
});
export type BalanceHolds = z.infer<typeof BalanceHolds>;

/** GET /api/billing-settings-balance. */
export const BalanceResponse = BalanceHolds.extend({
  /** Dollars. */
  balance: dollars,
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;

export const NewBalanceResponse = z.object({
  /** Dollars, after the deposit or withdrawal. */
  new_balance: dollars,
  /** A card deposit `for` a gift: the authorisation the give or purchase sends (nothing credited until it lands). */
  authorisation: z.string().optional(),
});
export type NewBalanceResponse = z.infer<typeof NewBalanceResponse>;

// ---- money history -------------------------------------------------------------------

/** A kind of movement in the money history: see MONEY_HISTORY_KINDS in texts.ts for their names. */
export type MoneyHistoryKind = keyof typeof MONEY_HISTORY_KINDS;
export const moneyHistoryKinds = Object.keys(MONEY_HISTORY_KINDS) as MoneyHistoryKind[];

/** The largest page of the money history. */
export const MONEY_HISTORY_MAX_PAGE = 100;

/**
 * GET /api/wallet/history (and /api/wallet/history.csv, without paging): the signed-in user's
 * movements, newest first. `before` is the `nextCursor` of the previous page; `kind` filters.
 */
export const MoneyHistoryQuery = z.object({
  userId: userIdSchema,
  kind: z.enum(moneyHistoryKinds as [MoneyHistoryKind, ...MoneyHistoryKind[]]).optional(),
  before: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(MONEY_HISTORY_MAX_PAGE).optional(),
});

/** Someone the user may know in a movement: the recipient of their gift, the maker of a give link they accepted. */
export const MoneyHistoryParty = z.object({ username: z.string(), displayName: z.string() });
export type MoneyHistoryParty = z.infer<typeof MoneyHistoryParty>;

/** One movement of the user's balance. */
export const MoneyHistoryEntry = z.object({
  /** The movement's own id in this user's history (never shared with anyone else's). */
  id: z.string(),
  createdAt: isoTime,
  kind: z.enum(moneyHistoryKinds),
  /** Dollars, signed: positive came in, negative went out. */
  amount: dollars,
  /** Dollars: the balance right after this movement. */
  balance: dollars,
  /** Who the money went to or came from, only where the user may know it; else null. */
  party: MoneyHistoryParty.nullable(),
  /** A gift received whose giver stays hidden ('Anonymous'). */
  anonymous: z.boolean(),
  /** A withdrawal: the bank it goes to (last 4 digits, as on file now) and the transfer's state. */
  payout: z.object({ bankLast4: z.string().nullable(), status: z.enum(['pending', 'paid', 'failed']) }).optional(),
});
export type MoneyHistoryEntry = z.infer<typeof MoneyHistoryEntry>;

export const MoneyHistoryPage = z.object({
  entries: z.array(MoneyHistoryEntry),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type MoneyHistoryPage = z.infer<typeof MoneyHistoryPage>;
