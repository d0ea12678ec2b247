/**
 * Card testing stopped: before a card is touched, an identity whose card payments are locked is
 * refused, and the payment is counted against three limits (the identity that pays, the card's
 * fingerprint, the client's address; in Redis with several processes, as every rate limit is). A
 * card that is declined or blocked counts towards the lock; too many in the window lock that
 * identity's card payments for a while. Every refusal moves nothing and is counted in the metrics.
 *
 * The identity that pays (identity/identity.ts `payingIdentity`) is the persona for a one-step
 * anonymous gift and the named person otherwise, so a lock earned by name never refuses a gift
 * the recipient would see land from a giver who is not locked (docs/anonymity.md).
 */
import type { CardSafetyConfig } from '../config.js';
import { AppError } from '../errors.js';
import { spend, type RateLimits } from '../limits/rate-limits.js';
import type { Metrics } from '../metrics/metrics.js';
import type { CardSource, WalletPayments } from '../payments/provider.js';
import { CARD_PAYMENTS_LIMITED, CARD_PAYMENTS_LOCKED } from '../../contract/texts.js';

export interface CardGuardDeps {
  limits: RateLimits;
  config: { cardSafety: CardSafetyConfig };
  payments: WalletPayments;
  metrics?: Pick<Metrics, 'cardRefused'>;
}

export const cardPaymentsLocked = () => new AppError(429, 'card_payments_locked', CARD_PAYMENTS_LOCKED);
export const cardPaymentsLimited = () => new AppError(429, 'card_payments_limited', CARD_PAYMENTS_LIMITED);

/** The card's refusals that count towards the lock: the card's bank or the provider said no. */
const DECLINES: Partial<Record<string, string>> = {
  card_declined: 'declined',
  payment_declined: 'declined',
  insufficient_funds: 'declined',
  card_blocked: 'blocked',
};

const lockOf = (deps: CardGuardDeps) => deps.limits.limiter('card-lock', 1, deps.config.cardSafety.lockSeconds);

/** Spends one use of `name` for `key`; over it, the refusal is counted and answered as `card_payments_limited`. */
async function spendOrRefuse(deps: CardGuardDeps, name: string, points: number, key: string): Promise<void> {
  try {
    await spend(deps.limits.limiter(name, points, deps.config.cardSafety.windowSeconds), key);
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 429) throw err;
    deps.metrics?.cardRefused(name);
    throw cardPaymentsLimited();
  }
}

/** Who pays: the person (whose saved card it may be) and the identity they pay as (`payingIdentity`). */
export interface CardPayer {
  userId: string;
  identity: string;
  client: string;
  source: CardSource | null;
}

/** Checks the lock and spends from the three limits; the card (when the page sent one or a saved one pays) by its fingerprint. */
export async function admitCardPayment(deps: CardGuardDeps, input: CardPayer): Promise<void> {
  const locked = await lockOf(deps).get(input.identity);
  if (locked && locked.consumedPoints > 1) {
    deps.metrics?.cardRefused('locked');
    throw cardPaymentsLocked();
  }
  const limits = deps.config.cardSafety;
  await spendOrRefuse(deps, 'card-account', limits.perAccount, input.identity);
  await spendOrRefuse(deps, 'card-client', limits.perClient, input.client);
  // A card the provider cannot describe now is still limited per account and per client.
  const fingerprint = input.source ? await deps.payments.cardFingerprint(input.userId, input.source).catch(() => null) : null;
  if (fingerprint) await spendOrRefuse(deps, 'card-fingerprint', limits.perCard, fingerprint);
}

/** A card refused by its bank or the risk check: counted, and past the limit the identity's card payments are locked. */
export async function noteCardRefusal(deps: CardGuardDeps, identity: string, err: unknown): Promise<void> {
  const reason = err instanceof AppError ? DECLINES[err.code] : undefined;
  if (!reason) return;
  deps.metrics?.cardRefused(reason);
  const limits = deps.config.cardSafety;
  let declines: number;
  try {
    declines = (await deps.limits.limiter('card-declines', limits.declinesBeforeLock, limits.declineWindowSeconds).consume(identity))
      .consumedPoints;
  } catch (over) {
    // Past the window's points the limiter refuses with its state, not an Error; an Error is the store failing.
    if (over instanceof Error) throw over;
    declines = limits.declinesBeforeLock;
  }
  if (declines >= limits.declinesBeforeLock) await lockOf(deps).block(identity, limits.lockSeconds);
}

/** A card payment run under the guard: admitted first, and a decline it meets noted. */
export async function guardCardPayment<T>(deps: CardGuardDeps, input: CardPayer, pay: () => Promise<T>): Promise<T> {
  await admitCardPayment(deps, input);
  try {
    return await pay();
  } catch (err) {
    await noteCardRefusal(deps, input.identity, err);
    throw err;
  }
}
