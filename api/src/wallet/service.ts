import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { MoneySteps } from '../http/unit-of-work.js';
import { balanceOf, userAccount } from '../money/ledger.js';
import { beginDeposit, beginWithdrawal, completeIntent } from './intents.js';
import type { CardSource, WalletPayments } from '../payments/provider.js';
import type { BalanceResponse, CardGiftTarget } from '../../contract/wallet.js';
import { authoriseHold } from './card-hold.js';
import { balanceSummaries } from '../money/balance-store.js';
import { holdClock } from '../money/holds.js';
import { startCardElements } from './card-elements.js';
import type { WalletOutcome } from './settle.js';
import { requirePayoutsReady } from '../payouts/service.js';
import type { PaymentIntent } from './entity.js';

import { MONEY_MOVE_FAILED as OVERDRAWN } from '../../contract/texts.js';

export { OVERDRAWN };

export interface WalletDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

export function getBalanceCents(db: Database, userId: string): Promise<number> {
  return balanceOf(db.manager, userAccount(userId));
}

/** A user's balance, what of it can be withdrawn now and what is on hold until when (the one rule, money/balance-store.ts). */
export async function balanceHolds(db: Database, userId: string): Promise<BalanceResponse> {
  const summary = (await balanceSummaries(db, [userId], holdClock(db))).get(userId);
  if (!summary) throw notFound('User not found');
  return summary;
}

/** A deposit or withdrawal as the route asks for it. */
export interface MoneyRequest {
  userId: string;
  amountCents: number;
}

/**
 * Charges the payment provider and credits the user's balance, never holding a transaction
 * while the provider works (wallet/intents.ts): a pending intent is recorded, the provider is
 * charged, and the credit is settled in a second transaction. A declined charge moves nothing.
 */
export function depositSteps(deps: WalletDeps, req: MoneyRequest): MoneySteps<PaymentIntent, WalletOutcome> {
  return {
    scope: 'wallet.deposit',
    input: req.amountCents,
    begin: (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId }),
    finish: (intent) => completeIntent(deps, intent),
  };
}

export interface CardDepositRequest extends MoneyRequest {
  /** The card the page sent, or the saved one. */
  source: CardSource;
}

const CARD_KEY_REQUIRED = 'A card deposit needs an Idempotency-Key.';

/** The card as a repeat of the key must name it: by its last 4 digits only. */
const cardOf = (source: CardSource) =>
  source.kind === 'card' ? { last4: source.card.number.replace(/\D/g, '').slice(-4), save: source.save } : 'saved';

/**
 * A deposit charged to a card (wallet/intents.ts, as `depositSteps`): the card details go to the
 * provider and are forgotten. The key is required, so a retry can never charge twice.
 */
export function cardDepositSteps(deps: WalletDeps, req: CardDepositRequest): MoneySteps<PaymentIntent, WalletOutcome> {
  return {
    scope: 'wallet.card-deposit',
    input: { amount: req.amountCents, card: cardOf(req.source) },
    keyRequired: CARD_KEY_REQUIRED,
    begin: (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: 'form' }),
    finish: (intent) => completeIntent(deps, intent, req.source),
  };
}

/**
 * A card authorised for a gift (card-hold.ts): nothing is credited or taken until the give or
 * purchase lands with the outcome's `authorisation`. The key's input names what it pays for.
 */
export function cardHoldSteps(
  deps: WalletDeps,
  req: CardDepositRequest & { target: CardGiftTarget },
): MoneySteps<PaymentIntent, WalletOutcome> {
  return {
    scope: 'wallet.card-deposit',
    input: { amount: req.amountCents, card: cardOf(req.source), for: req.target },
    keyRequired: CARD_KEY_REQUIRED,
    begin: (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: 'hold' }),
    finish: (intent) => authoriseHold(deps, intent, req.source),
  };
}

/**
 * A card deposit confirmed with Stripe Elements (card-elements.ts): the PaymentIntent to confirm,
 * once per key; the key's input holds no card at all (Stripe keeps it), and a repeat reads the
 * PaymentIntent's secret again (`withClientSecret`).
 */
export function cardElementsSteps(
  deps: WalletDeps,
  req: MoneyRequest & { save: boolean; target?: CardGiftTarget },
): MoneySteps<PaymentIntent, WalletOutcome> {
  return {
    scope: 'wallet.card-deposit',
    input: { amount: req.amountCents, card: 'elements', save: req.save, ...(req.target ? { for: req.target } : {}) },
    keyRequired: CARD_KEY_REQUIRED,
    begin: (em, recordId) =>
      beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: req.target ? 'elements-hold' : 'elements' }),
    finish: (intent) => startCardElements(deps, intent, req.save),
  };
}

/**
 * Refused until the user's payouts are ready (payouts/). Takes the amount from the user's balance
 * at once (refused when it does not cover it; held in
 * `system:payouts-pending`), pays it out through the provider outside any transaction, then
 * settles: a failed payout gives the held money back.
 */
export function withdrawalSteps(deps: WalletDeps, req: MoneyRequest): MoneySteps<PaymentIntent, WalletOutcome> {
  return {
    scope: 'wallet.withdrawal',
    input: req.amountCents,
    begin: async (em, recordId) => {
      await requirePayoutsReady(em, req.userId);
      return beginWithdrawal(em, {
        userId: req.userId,
        amountCents: req.amountCents,
        recordId,
        insufficient: () => badRequest(OVERDRAWN, 'insufficient_funds'),
      });
    },
    finish: (intent) => completeIntent(deps, intent),
  };
}
