import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { badRequest } from '../errors.js';
import { withIdempotentSteps, type IdempotentAnswer } from '../money/idempotency.js';
import { balanceOf, userAccount } from '../money/ledger.js';
import { beginDeposit, beginWithdrawal, completeIntent } from './intents.js';
import type { WalletPayments } from '../payments/provider.js';
import type { NewBalanceResponse } from '../../contract/wallet.js';

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

/**
 * Takes the amount from the user's balance at once (refused when it does not cover it; held in
 * `system:payouts-pending`), pays it out through the provider outside any transaction, then
 * settles: a failed payout gives the held money back.
 */
export function withdraw(deps: WalletDeps, req: MoneyRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  return withIdempotentSteps(
    deps.db,
    { key: req.idempotencyKey, userId: req.userId, scope: 'wallet.withdrawal', input: req.amountCents },
    (em, recordId) =>
      beginWithdrawal(em, {
        userId: req.userId,
        amountCents: req.amountCents,
        recordId,
        insufficient: () => badRequest(OVERDRAWN, 'insufficient_funds'),
      }),
    (intent) => completeIntent(deps, intent),
  );
}
