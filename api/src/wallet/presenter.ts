import { centsToDollars } from '../../contract/money.js';
import type { CardDepositStarted, NewBalanceResponse } from '../../contract/wallet.js';
import type { Answer } from '../http/idempotency.js';
import type { WalletOutcome } from './settle.js';

/** A wallet request's outcome as its answer: 200 with the new balance (and a card hold's authorisation), or 202 with the card payment to confirm. */
export function presentOutcome(outcome: WalletOutcome): Answer<NewBalanceResponse | CardDepositStarted> {
  if (outcome.kind === 'started')
    return { status: 202, body: { paymentIntentId: outcome.paymentIntentId, clientSecret: outcome.clientSecret ?? '' } };
  const body: NewBalanceResponse = { new_balance: centsToDollars(outcome.balanceCents) };
  return { status: 200, body: outcome.authorisation ? { ...body, authorisation: outcome.authorisation } : body };
}

/** The same, for a request that only ever comes to a balance (a deposit, a withdrawal, a confirmed card payment). */
export function presentBalance(outcome: WalletOutcome): Answer<NewBalanceResponse> {
  if (outcome.kind !== 'balance') throw new Error('wallet: a balance was expected');
  return presentOutcome(outcome) as Answer<NewBalanceResponse>;
}
