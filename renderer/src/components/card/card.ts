/**
 * The sandbox card form's formatting and checks: pure functions, so the form and its tests agree.
 * Only the shape is checked here (digits, Luhn, a future month, 3–4 digits); whether a card pays is
 * the sandbox's answer, as it would be Stripe's.
 */

/** Stripe's documented test numbers, which the sandbox accepts (test mode only). */
export const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'Succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'Declined' },
  { number: '4000 0000 0000 9995', outcome: 'Insufficient funds' },
] as const;

export const CARD_MAX_DIGITS = 19;

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** '4242424242424242' or '4242-4242 42' → '4242 4242 4242 4242' / '4242 4242 42': groups of four, at most 19 digits. */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text).slice(0, CARD_MAX_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * Month then two-digit year as the user types: '1' → '1', '12' → '12 / ', '123' → '12 / 3',
 * '2' → '02 / ', '1/' → '01 / '. Deleting (text shorter than `previous`) never re-adds the ' / '.
 */
export function formatExpiry(text: string, previous = ''): string {
  let digits = digitsOf(text);
  const deleting = text.length < previous.length;
  // '2'…'9' can only be a month written with one digit; '1/' means January.
  if (!deleting && digits.length === 1 && (Number(digits) > 1 || /^\s*\d\s*\//.test(text))) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2 || (digits.length === 2 && deleting)) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function formatCvc(text: string): string {
  return digitsOf(text).slice(0, 4);
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardInput, string>>;

export const CARD_NUMBER_INVALID = 'Please enter a valid card number.';
export const CARD_EXPIRY_INVALID = 'Please enter the expiry date as MM/YY.';
export const CARD_EXPIRED = 'This card has expired.';
export const CARD_CVC_INVALID = 'Please enter the 3 or 4 digit security code.';

/** 'MM / YY' → { month, year (full) }, or null when it is not a real month. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(expiry);
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

/** What is wrong with the card as typed, field by field; an empty object when it can be sent. */
export function validateCard(card: CardInput, now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = digitsOf(card.number);
  if (digits.length < 12 || digits.length > CARD_MAX_DIGITS || !luhnValid(digits)) errors.number = CARD_NUMBER_INVALID;
  const expiry = parseExpiry(card.expiry);
  if (!expiry) errors.expiry = CARD_EXPIRY_INVALID;
  else if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1))
    errors.expiry = CARD_EXPIRED;
  if (!/^\d{3,4}$/.test(card.cvc)) errors.cvc = CARD_CVC_INVALID;
  return errors;
}

/** The card as the sandbox confirm takes it: digits only, 'MM/YY'. */
export function cardForConfirm(card: CardInput): { cardNumber: string; expiry: string; cvc: string } {
  const expiry = parseExpiry(card.expiry);
  return {
    cardNumber: digitsOf(card.number),
    expiry: expiry ? `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}` : card.expiry,
    cvc: card.cvc,
  };
}
