import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import { withIdempotentSteps, type IdempotentAnswer } from '../http/idempotency.js';
import { balanceOf, userAccount } from '../money/ledger.js';
import { beginDeposit, beginWithdrawal, completeIntent } from './intents.js';
import type { CardSource, WalletPayments } from '../payments/provider.js';
import type { BalanceResponse, CardDepositStarted, CardGiftTarget, NewBalanceResponse } from '../../contract/wallet.js';
import { authoriseHold } from './card-hold.js';
import { balanceSummaries } from '../money/balance-store.js';
import { holdClock } from '../money/holds.js';
import { startCardElements, withClientSecret } from './card-elements.js';
import { requirePayoutsReady } from '../payouts/service.js';
import type { PaymentIntent } from './entity.js';

import { MONEY_MOVE_FAILED as OVERDRAWN } from '../../contract/texts.js';

export { OVERDRAWN };

export interface WalletDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

export interface MoneyRequest {
  userId: string;
  amountCents: number;
  /** The request's Idempotency-Key, if any. */
  idempotencyKey: string | undefined;
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

/**
 * Charges the payment provider and credits the user's balance, never holding a transaction
 * while the provider works (wallet/intents.ts): a pending intent is recorded, the provider is
 * charged, and the credit is settled in a second transaction. A declined charge moves nothing.
 */
export function deposit(deps: WalletDeps, req: MoneyRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  return withIdempotentSteps(
    deps.db,
    { key: req.idempotencyKey, userId: req.userId, scope: 'wallet.deposit', input: req.amountCents },
    (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId }),
    (intent) => completeIntent(deps, intent),
  );
}

export interface CardDepositRequest extends MoneyRequest {
  /** The card the page sent, or the saved one. */
  source: CardSource;
}

/**
 * A deposit charged to a card (wallet/intents.ts, as `deposit`): the card details go to the
 * provider and are forgotten. The key is required, so a retry can never charge twice; the key's
 * input names the card by its last 4 digits only.
 */
export function cardDeposit(deps: WalletDeps, req: CardDepositRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  if (req.idempotencyKey === undefined) throw badRequest('A card deposit needs an Idempotency-Key.', 'invalid_idempotency_key');
  const { source } = req;
  const card = source.kind === 'card' ? { last4: source.card.number.replace(/\D/g, '').slice(-4), save: source.save } : 'saved';
  return withIdempotentSteps(
    deps.db,
    { key: req.idempotencyKey, userId: req.userId, scope: 'wallet.card-deposit', input: { amount: req.amountCents, card } },
    (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: 'form' }),
    (intent) => completeIntent(deps, intent, source),
  );
}

/**
 * A card authorised for a gift (card-hold.ts): nothing is credited or taken until the give or
 * purchase lands with the answer's `authorisation`. The key's input names what it pays for.
 */
export function cardHoldDeposit(
  deps: WalletDeps,
  req: CardDepositRequest & { target: CardGiftTarget },
): Promise<IdempotentAnswer<NewBalanceResponse>> {
  if (req.idempotencyKey === undefined) throw badRequest('A card deposit needs an Idempotency-Key.', 'invalid_idempotency_key');
  const { source } = req;
  const card = source.kind === 'card' ? { last4: source.card.number.replace(/\D/g, '').slice(-4), save: source.save } : 'saved';
  return withIdempotentSteps(
    deps.db,
    {
      key: req.idempotencyKey,
      userId: req.userId,
      scope: 'wallet.card-deposit',
      input: { amount: req.amountCents, card, for: req.target },
    },
    (em, recordId) => beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: 'hold' }),
    (intent) => authoriseHold(deps, intent, source),
  );
}

/**
 * A card deposit confirmed with Stripe Elements (card-elements.ts): 202 with the PaymentIntent's
 * client secret, once per key; the key's input holds no card at all (Stripe keeps it).
 */
export async function startCardElementsDeposit(
  deps: WalletDeps,
  req: MoneyRequest & { save: boolean; target?: CardGiftTarget },
): Promise<IdempotentAnswer<CardDepositStarted | NewBalanceResponse>> {
  if (req.idempotencyKey === undefined) throw badRequest('A card deposit needs an Idempotency-Key.', 'invalid_idempotency_key');
  const answer = await withIdempotentSteps<PaymentIntent, CardDepositStarted | NewBalanceResponse>(
    deps.db,
    {
      key: req.idempotencyKey,
      userId: req.userId,
      scope: 'wallet.card-deposit',
      input: { amount: req.amountCents, card: 'elements', save: req.save, ...(req.target ? { for: req.target } : {}) },
    },
    (em, recordId) =>
      beginDeposit(em, { userId: req.userId, amountCents: req.amountCents, recordId, card: req.target ? 'elements-hold' : 'elements' }),
    (intent) => startCardElements(deps, intent, req.save),
  );
  if (!answer.replayed || !('paymentIntentId' in answer.body)) return answer;
  return { ...answer, body: await withClientSecret(deps, answer.body) };
}

/**
 * Refused until the user's payouts are ready (payouts/). Takes the amount from the user's balance
 * at once (refused when it does not cover it; held in
 * `system:payouts-pending`), pays it out through the provider outside any transaction, then
 * settles: a failed payout gives the held money back.
 */
export function withdraw(deps: WalletDeps, req: MoneyRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  return withIdempotentSteps(
    deps.db,
    { key: req.idempotencyKey, userId: req.userId, scope: 'wallet.withdrawal', input: req.amountCents },
    async (em, recordId) => {
      await requirePayoutsReady(em, req.userId);
      return beginWithdrawal(em, {
        userId: req.userId,
        amountCents: req.amountCents,
        recordId,
        insufficient: () => badRequest(OVERDRAWN, 'insufficient_funds'),
      });
    },
    (intent) => completeIntent(deps, intent),
  );
}
