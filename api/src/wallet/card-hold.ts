/**
 * A one-step gift paid by card (docs/decisions/0016-authorise-then-capture.md): the card is
 * authorised, not charged, for what the balance is missing (a `card_hold` intent); the gift's own
 * transaction credits that deposit and lands the gift together (`landHold`), and only after its
 * commit is the card captured. A gift that is refused lets the authorisation go, so the card is
 * never charged for a gift that did not land. Provider calls are never inside a transaction.
 */
import { In, type EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { AppError, notFound } from '../errors.js';
import { completeIdempotencyRecord } from '../http/idempotency.js';
import type { PayerIdentity } from '../money/holds.js';
import { SYSTEM_PAYMENTS, balanceOf, transfer, userAccount } from '../money/ledger.js';
import {
  cardDeclined,
  isDefiniteFailure,
  paymentIncomplete,
  paymentProcessing,
  type CardHold,
  type CardPayment,
  type CardSource,
  type WalletPayments,
} from '../payments/provider.js';
import { CARD_HOLD_GONE } from '../../contract/texts.js';
import { HOLD_KINDS, PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { claim, paymentPending, settleFailed, type WalletOutcome } from './settle.js';

export interface HoldDeps {
  db: Database;
  payments: WalletPayments;
  log?: Logger;
}

export const cardHoldGone = () => new AppError(409, 'card_hold_gone', CARD_HOLD_GONE);

/** The request's outside work after its intent is recorded: authorise, then answer the authorisation to give with. */
export async function authoriseHold(deps: HoldDeps, intent: PaymentIntent, source: CardSource): Promise<WalletOutcome> {
  let hold: CardHold;
  try {
    hold = await deps.payments.authoriseCard({
      userId: intent.userId,
      amountCents: intent.amountCents,
      idempotencyKey: intent.idempotencyKey,
      source,
    });
  } catch (err) {
    if (!isDefiniteFailure(err)) {
      deps.log?.warn({ err, intent: intent.id }, 'card authorisation outcome unknown; left pending');
      throw paymentPending();
    }
    await settleFailed(deps.db, intent);
    throw err;
  }
  const answer = await deps.db.transaction(async (em) => {
    if (!(await claim(em, intent, 'authorised', hold.reference))) return null;
    const balanceCents = await balanceOf(em, userAccount(intent.userId));
    const made: WalletOutcome = { kind: 'balance', balanceCents, authorisation: intent.id };
    await completeIdempotencyRecord(em, intent.idempotencyRecordId, made);
    return made;
  });
  if (!answer) throw paymentPending();
  return answer;
}

/** What an authorisation comes to for the page: the balance as it is (nothing credited yet) and the authorisation to give with. */
async function authorisedOutcome(deps: HoldDeps, intent: PaymentIntent): Promise<WalletOutcome> {
  const balanceCents = await balanceOf(deps.db.manager, userAccount(intent.userId));
  return { kind: 'balance', balanceCents, authorisation: intent.id };
}

/**
 * The page confirmed an Elements authorisation (card-elements.ts `confirmCardElements`): Stripe's
 * word on its PaymentIntent decides. Authorised: the answer carries the authorisation; declined or
 * never paid: `cancel` lets it go and nothing moved.
 */
export async function confirmElementsHold(
  deps: HoldDeps,
  intent: PaymentIntent,
  cancel: (payment: CardPayment) => Promise<CardPayment>,
): Promise<WalletOutcome> {
  if (intent.status === 'failed' || !intent.providerReference) throw paymentIncomplete(402);
  if (intent.status !== 'pending') return authorisedOutcome(deps, intent);
  const payment = await deps.payments.readCardPayment(intent.providerReference);
  if (payment.intentId !== intent.id) throw notFound('There is no such card payment.');
  if (payment.capturable) {
    await deps.db.transaction((em) => claim(em, intent, 'authorised', null));
    const now = await deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id });
    if (now.status === 'failed') throw paymentIncomplete(402);
    return authorisedOutcome(deps, intent);
  }
  if (payment.status === 'processing') throw paymentProcessing();
  const after = payment.status === 'requires_payment_method' || payment.status === 'canceled' ? await cancel(payment) : payment;
  throw after.declined ? cardDeclined() : paymentIncomplete(402);
}

/** A gift paid with an authorisation: the giver's, and as whom the gift is given (every card gift today is anonymous). */
export interface HoldInput {
  intentId: string;
  userId: string;
  identity: PayerIdentity;
}

/**
 * Inside the gift's transaction: the authorisation becomes the giver's deposit, made as the gift's
 * identity, so the gift can spend it. Only the giver's own authorisation, and only once.
 */
export async function landHold(em: EntityManager, input: HoldInput): Promise<void> {
  const intent = await em.findOneBy(PaymentIntentEntity, { id: input.intentId, userId: input.userId, kind: In(HOLD_KINDS) });
  if (!intent?.providerReference || !(await claim(em, intent, 'landed', null, 'authorised'))) throw cardHoldGone();
  await transfer(em, {
    from: SYSTEM_PAYMENTS,
    to: userAccount(intent.userId),
    amountCents: intent.amountCents,
    kind: 'deposit',
    actorUserId: intent.userId,
    reference: intent.providerReference,
    identity: input.identity,
  });
  await em.update(PaymentIntentEntity, { id: intent.id }, { updatedAt: new Date() });
}

/** After the gift's commit: takes the money. A lost answer leaves it `landed`, captured again by recovery with the same key. */
export async function captureHold(deps: HoldDeps, intentId: string): Promise<void> {
  const intent = await deps.db.manager.findOneBy(PaymentIntentEntity, { id: intentId });
  if (intent?.status !== 'landed' || !intent.providerReference) return;
  try {
    const hold = await deps.payments.captureCard(intent.providerReference, `${intent.idempotencyKey}:capture`);
    if (hold.status !== 'succeeded') throw new Error(`capture answered ${hold.status}`);
  } catch (err) {
    deps.log?.error({ err, intent: intent.id }, 'card capture not confirmed; asked again later');
    return;
  }
  await deps.db.transaction((em) => claim(em, intent, 'succeeded', null, 'landed'));
}

/**
 * The gift did not land: the authorisation is let go. Marked `releasing` first, so that no gift
 * can land it after the provider was told; recovery finishes a release a crash interrupted.
 */
export async function releaseHold(deps: HoldDeps, input: { intentId: string; userId?: string }): Promise<boolean> {
  const intent = await deps.db.manager.findOneBy(PaymentIntentEntity, { id: input.intentId, kind: In(HOLD_KINDS) });
  if (!intent || (input.userId !== undefined && intent.userId !== input.userId)) return false;
  if (intent.status === 'authorised' && !(await deps.db.transaction((em) => claim(em, intent, 'releasing', null, 'authorised'))))
    return false;
  if (intent.status !== 'authorised' && intent.status !== 'releasing') return false;
  try {
    if (intent.providerReference) await deps.payments.cancelCardHold(intent.providerReference);
  } catch (err) {
    deps.log?.warn({ err, intent: intent.id }, 'card authorisation not cancelled yet; asked again later');
    return false;
  }
  return settleFailed(deps.db, intent, 'releasing');
}

/**
 * Runs a gift paid with an authorisation: `run` gets the step to do first in its transaction.
 * Landed: the card is captured. Refused (a 4xx): the authorisation is let go and the refusal
 * answered. Anything else leaves the intent's state to say what happened, for recovery.
 */
export async function withCardHold<T>(
  deps: HoldDeps,
  input: HoldInput,
  run: (land: (em: EntityManager) => Promise<void>) => Promise<T>,
): Promise<T> {
  let answer: T;
  try {
    answer = await run((em) => landHold(em, input));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) await releaseHold(deps, input);
    throw err;
  }
  await captureHold(deps, input.intentId);
  return answer;
}
