import crypto from 'node:crypto';
import type { Database } from '../db/index.js';
import { badRequest } from '../errors.js';
import { centsToDollars } from '../../contract/money.js';
import { withIdempotency, type IdempotentAnswer } from '../money/idempotency.js';
import { SYSTEM_PAYMENTS, balanceOf, setTransferReference, transfer, userAccount } from '../money/ledger.js';
import type { PaymentsProvider } from './payments.js';
import type { NewBalanceResponse } from './schemas.js';

import { MONEY_MOVE_FAILED as OVERDRAWN } from '../../contract/texts.js';

export { OVERDRAWN };

export interface WalletDeps {
  db: Database;
  payments: PaymentsProvider;
}

export interface MoneyRequest {
  userId: string;
  amountCents: number;
  /** The request's Idempotency-Key, if any. */
  idempotencyKey: string | undefined;
}

/** The provider's idempotency key: stable for a client's key, unique otherwise. */
const providerKey = (scope: string, req: MoneyRequest) =>
  req.idempotencyKey ? `${scope}:${req.userId}:${req.idempotencyKey}` : crypto.randomUUID();

export function getBalanceCents(db: Database, userId: string): Promise<number> {
  return balanceOf(db.manager, userAccount(userId));
}

/**
 * Credits the user's balance and charges the payment provider, in one transaction: a declined
 * charge leaves the balance as it was.
 */
export function deposit(deps: WalletDeps, req: MoneyRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  const scope = 'wallet.deposit';
  return withIdempotency(deps.db, { key: req.idempotencyKey, userId: req.userId, scope, input: req.amountCents }, async (em) => {
    const moved = await transfer(em, {
      from: SYSTEM_PAYMENTS,
      to: userAccount(req.userId),
      amountCents: req.amountCents,
      kind: 'deposit',
      actorUserId: req.userId,
    });
    const charge = await deps.payments.charge({
      userId: req.userId,
      amountCents: req.amountCents,
      idempotencyKey: providerKey(scope, req),
    });
    await setTransferReference(em, moved.transferId, charge.reference);
    return { status: 200, body: { new_balance: centsToDollars(moved.toBalanceCents) } };
  });
}

/**
 * Debits the user's balance (refused when it does not cover the amount) and pays out through
 * the provider, in one transaction: a failed payout leaves the balance as it was.
 */
export function withdraw(deps: WalletDeps, req: MoneyRequest): Promise<IdempotentAnswer<NewBalanceResponse>> {
  const scope = 'wallet.withdrawal';
  return withIdempotency(deps.db, { key: req.idempotencyKey, userId: req.userId, scope, input: req.amountCents }, async (em) => {
    const moved = await transfer(em, {
      from: userAccount(req.userId),
      to: SYSTEM_PAYMENTS,
      amountCents: req.amountCents,
      kind: 'withdrawal',
      actorUserId: req.userId,
      insufficient: badRequest(OVERDRAWN, 'insufficient_funds'),
    });
    const payout = await deps.payments.payout({
      userId: req.userId,
      amountCents: req.amountCents,
      idempotencyKey: providerKey(scope, req),
    });
    await setTransferReference(em, moved.transferId, payout.reference);
    return { status: 200, body: { new_balance: centsToDollars(moved.fromBalanceCents) } };
  });
}
