/** The sandbox's test cards: what each of Stripe's documented test numbers does, and the refusal it is. */
import { AppError, badRequest } from '../errors.js';
import { cardBlocked, cardDeclined, type CardDetails, type CardSource } from './provider.js';
import type { SandboxCardOutcome } from './sandbox-holds.js';

/** Stripe's test cards the sandbox knows. */
export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** Stripe's risk block: declined with `decline_code: 'fraudulent'`. */
  fraudulent: '4100000000000019',
  /** Pays, and is disputed shortly after (as Stripe's 4000 0000 0000 0259): payments/sandbox-disputes-store.ts. */
  disputed: '4000000000000259',
} as const;

/** How long after its charge (or capture) the sandbox disputes a payment with the disputed test card. */
export const SANDBOX_DISPUTE_AFTER_MS = 30_000;

/** Whether a card the page sent is the test card the sandbox disputes after it pays. */
export const isDisputedTestCard = (source: CardSource | null): boolean =>
  source?.kind === 'card' && source.card.number.replace(/\D/g, '') === SANDBOX_CARDS.disputed;

const cardInsufficientFunds = () => new AppError(402, 'insufficient_funds', 'Your card has insufficient funds.');
const unknownTestCard = () =>
  badRequest('This is test mode: use the test card 4242 4242 4242 4242 (any future expiry date and any CVC).', 'invalid_card');

/** What a test card does; a card that is not one of Stripe's test numbers, or malformed, is a 400. */
export function cardOutcome(card: CardDetails, now: Date): SandboxCardOutcome {
  checkCardDetails(card.expiry, card.cvc, now);
  const number = card.number.replace(/[\s-]/g, '');
  if (number === SANDBOX_CARDS.declined) return 'declined';
  if (number === SANDBOX_CARDS.fraudulent) return 'fraudulent';
  if (number === SANDBOX_CARDS.insufficientFunds) return 'insufficient_funds';
  if (number !== SANDBOX_CARDS.succeeds && number !== SANDBOX_CARDS.disputed) throw unknownTestCard();
  return 'succeeded';
}

export function refusalOf(outcome: Exclude<SandboxCardOutcome, 'succeeded'>): AppError {
  if (outcome === 'fraudulent') return cardBlocked();
  return outcome === 'insufficient_funds' ? cardInsufficientFunds() : cardDeclined();
}

/** MM/YY not in the past, and a 3- or 4-digit CVC, as a card form checks them. */
function checkCardDetails(expiry: string, cvc: string, now: Date): void {
  const match = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  const month = match ? Number(match[1]) : 0;
  if (!match || month < 1 || month > 12) throw badRequest('Please enter the expiry date as MM/YY.', 'invalid_card');
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw badRequest('Your card has expired.', 'invalid_card');
  if (!/^\d{3,4}$/.test(cvc)) throw badRequest('Please enter the 3 or 4 digit security code (CVC).', 'invalid_card');
}
