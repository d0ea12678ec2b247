/**
 * The unit of work of a money-moving route. The route, not the command, owns it: it reads the
 * Idempotency-Key, opens the transaction (or joins SQLite's group commit), hands the command
 * `{ em, afterCommit }`, stores the presented answer under the key, and publishes what the command
 * asked for once the transaction has committed. A repeat of the key answers the stored answer and
 * publishes nothing.
 *
 *     await moneyRoute(deps, ctx, { userId, scope: 'gifts.return', input: params },
 *       (uow) => returnGift(uow, { userId, ...params }),
 *       (returned) => ({ status: 200, body: { returned: centsToDollars(returned.amountCents) } }));
 */
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { afterCommit, type RealtimeEvent } from '../realtime/publisher.js';
import { sendAnswer } from './answer.js';
import type { AppContext } from './context.js';
import { badRequest } from '../errors.js';
import { readIdempotencyKey, withIdempotency, withIdempotentSteps, type Answer, type IdempotentAnswer } from './idempotency.js';

/** What a command runs in: the route's transaction, and what to publish once it has committed. */
export interface UnitOfWork {
  em: EntityManager;
  afterCommit(...events: readonly RealtimeEvent[]): void;
}

export interface UnitOfWorkDeps {
  db: Database;
}

/** A step to run first in the unit's transaction (a card authorisation landing as the payer's deposit). */
export type FirstStep = (em: EntityManager) => Promise<void>;

export interface MoneyRequest<T> {
  userId: string;
  /** What the key is used for, e.g. `links.give`: the same key elsewhere is refused. */
  scope: string;
  /** The request as a repeat of the key must match it. */
  input?: unknown;
  /** The command may run again after a rollback (SQLite's group commit): its only outside effect is `afterCommit`. */
  replayable?: boolean;
  /** Wraps the unit (a card hold: authorised before, captured or let go after); `first` runs in its transaction. */
  around?: (run: (first: FirstStep) => Promise<IdempotentAnswer<T>>) => Promise<IdempotentAnswer<T>>;
}

/** Runs `command` once per (user, key) in one transaction, and answers the presented result. */
export async function runUnitOfWork<R, T>(
  deps: UnitOfWorkDeps,
  key: string | undefined,
  request: Omit<MoneyRequest<T>, 'around'>,
  command: (uow: UnitOfWork) => Promise<R>,
  present: (result: R) => Answer<T>,
  first?: FirstStep,
): Promise<IdempotentAnswer<T>> {
  return withIdempotency(deps.db, { ...request, key }, async (em) => {
    if (first) await first(em);
    return present(await command({ em, afterCommit }));
  });
}

/** The whole of a money-moving route after its input is validated: the unit of work, then its answer sent. */
export async function moneyRoute<R, T>(
  deps: UnitOfWorkDeps,
  ctx: AppContext,
  request: MoneyRequest<T>,
  command: (uow: UnitOfWork) => Promise<R>,
  present: (result: R) => Answer<T>,
): Promise<void> {
  const key = readIdempotencyKey(ctx);
  const { around, ...rest } = request;
  const run = (first?: FirstStep) => runUnitOfWork(deps, key, rest, command, present, first);
  sendAnswer(ctx, around ? await around(run) : await run());
}

/**
 * A money request whose middle runs outside any transaction (a payment provider): `begin` records
 * what is about to happen in the first transaction (with the key's row), `finish` makes the outside
 * call and settles, writing its result under the key in the settling transaction.
 */
export interface MoneySteps<B, R> {
  /** What the key is used for, e.g. `wallet.deposit`: the same key elsewhere is refused. */
  scope: string;
  /** The request as a repeat of the key must match it. */
  input: unknown;
  /** Set when the request must carry a key (a card is never charged twice): the refusal's text. */
  keyRequired?: string;
  begin(em: EntityManager, recordId: string | null): Promise<B>;
  finish(begun: B): Promise<R>;
}

/** Runs `steps` once per (user, key) and answers its presented result; a repeat presents the stored result again. */
export async function runMoneySteps<B, R, T>(
  deps: UnitOfWorkDeps,
  key: string | undefined,
  userId: string,
  steps: MoneySteps<B, R>,
  present: (result: R) => Answer<T>,
): Promise<IdempotentAnswer<T>> {
  if (key === undefined && steps.keyRequired) throw badRequest(steps.keyRequired, 'invalid_idempotency_key');
  return withIdempotentSteps(deps.db, { key, userId, scope: steps.scope, input: steps.input }, steps.begin, steps.finish, present);
}
