import crypto from 'node:crypto';
import type { z } from 'zod';
import { SUBSCRIPTION_PRICE_CENTS } from '../../contract/limits.js';
import type { Deps } from '../deps.js';
import { AppError, badRequest, conflict, forbidden } from '../errors.js';
import { SYSTEM_SUBSCRIPTIONS, transfer, userAccount } from '../money/ledger.js';
import { UserEntity, type User } from '../users/entity.js';
import { SubscriptionEntity, type Subscription, type SubscriptionProviderName } from './entity.js';
import { SUBSCRIPTION_PERIOD_MS, paymentIncomplete, paymentProcessing, type PaymentsProvider } from '../payments/provider.js';
import {
  SUBSCRIPTION_PRODUCT_ID,
  type CancelSubscriptionBody,
  type CancelSubscriptionResponse,
  type CreateSubscriptionBody,
  type CreateSubscriptionResponse,
} from '../../contract/subscriptions.js';
import { isRunning, isOver, laterEnd, lockSubscription, publicId, saveSubscription } from './state.js';

/**
 * The weekly subscription (PRODUCT.md §7): start, pay (a card through the provider, or the
 * balance through the ledger), resume, cancel. A provider is never called inside a transaction:
 * the service records what it is about to do, calls the provider, then settles in a transaction
 * (or the verified webhook settles it first; settle.ts). Idempotency keys make a retry after a
 * crash in between reuse the provider's first objects.
 */
export type SubscriptionDeps = Pick<Deps, 'db' | 'payments' | 'clock' | 'log'>;

export const unknownProduct = () => badRequest('Unknown product.', 'unknown_product');
export const alreadySubscribed = () => conflict('You are already subscribed.', 'already_subscribed');
const notSubscribed = () => badRequest('You have no subscription to cancel.', 'not_subscribed');
/** Canceled but not ended: subscribing again resumes it (create-subscription), with no new charge. */
const resumeInstead = (sub: Subscription) =>
  conflict(
    `Your subscription is still on until ${sub.currentPeriodEnd?.toISOString().slice(0, 10)}: subscribe again to keep it, with no new charge.`,
    'subscription_resumable',
  );

function checkProduct(productId: string): void {
  if (productId !== SUBSCRIPTION_PRODUCT_ID) throw unknownProduct();
}

/** A provider call: our own errors pass through, anything else (network, provider outage) is a 502. */
async function callProvider<T>(deps: SubscriptionDeps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    deps.log.error({ err }, 'subscription provider call failed');
    throw new AppError(502, 'payment_provider_error', 'The payment provider could not be reached. Please try again.');
  }
}

/** The provider a subscription was made with (a card one needs the provider PAYMENTS names now). */
function providerOf(deps: SubscriptionDeps, sub: Subscription): PaymentsProvider | null {
  if (sub.provider === 'balance' || !sub.providerSubscriptionId) return null;
  if (sub.provider !== deps.payments.name) throw conflict('This subscription was made with another payment provider.', 'provider_changed');
  return deps.payments;
}

function newSubscription(userId: string, provider: SubscriptionProviderName, now: Date): Subscription {
  return {
    id: crypto.randomUUID(),
    userId,
    provider,
    status: 'incomplete',
    paymentMethod: provider === 'balance' ? 'balance' : 'card',
    providerSubscriptionId: null,
    providerCustomerId: null,
    paymentIntentId: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    createdAt: now,
    updatedAt: now,
  };
}

const findSubscription = (deps: SubscriptionDeps, userId: string) => deps.db.manager.findOneBy(SubscriptionEntity, { userId });

/**
 * POST /subscriptions/create-payment-intent: starts (or reuses) the user's incomplete card
 * subscription at the provider and answers the first payment's client secret for the page.
 */
export async function createPaymentIntent(deps: SubscriptionDeps, user: User, productId: string): Promise<{ clientSecret: string }> {
  checkProduct(productId);
  const now = deps.clock();
  const provider = deps.payments;
  // 0. A past-due subscription being replaced stops at its provider first (outside any transaction),
  //    so the provider's retries of its unpaid invoice can never charge for it afterwards.
  const previous = await findSubscription(deps, user.id);
  const previousProvider = previous && previous.provider === provider.name ? providerOf(deps, previous) : null;
  if (previous?.status === 'past_due' && previous.providerSubscriptionId && previousProvider) {
    const stale = previous.providerSubscriptionId;
    await callProvider(deps, () => previousProvider.cancelNow(stale));
  }
  // 1. Record the intent: the user's incomplete subscription (a new one after an ended one).
  const sub = await deps.db.transaction(async (em) => {
    const current = await lockSubscription(em, { userId: user.id });
    if (current && isRunning(current, now)) throw current.cancelAtPeriodEnd ? resumeInstead(current) : alreadySubscribed();
    if (current?.status === 'incomplete' && current.provider === provider.name) return current;
    if (current) await em.delete(SubscriptionEntity, { id: current.id });
    const fresh = newSubscription(user.id, provider.name, now);
    await em.insert(SubscriptionEntity, { ...fresh });
    await em.update(UserEntity, { id: user.id }, { subscribedUntil: null });
    return fresh;
  });
  // 2. Call the provider, outside any transaction; the keys make a retry reuse the same objects.
  const customer = await callProvider(deps, () =>
    provider.ensureCustomer({
      userId: user.id,
      email: user.email,
      existingCustomerId: user.stripeCustomerId,
      idempotencyKey: `customer-${user.id}`,
    }),
  );
  const started = await callProvider(deps, () =>
    provider.startSubscription({ customerId: customer.id, idempotencyKey: `subscription-${sub.id}` }),
  );
  // 3. Settle: remember the customer and the provider's ids.
  await deps.db.transaction(async (em) => {
    if (customer.id !== user.stripeCustomerId)
      await em.update(UserEntity, { id: user.id }, { stripeCustomerId: customer.id, updatedAt: now });
    await em.update(
      SubscriptionEntity,
      { id: sub.id, status: 'incomplete' },
      {
        providerCustomerId: customer.id,
        providerSubscriptionId: started.subscriptionId,
        paymentIntentId: started.paymentIntentId,
        updatedAt: now,
      },
    );
  });
  return { clientSecret: started.clientSecret };
}

/**
 * POST /subscriptions/create-subscription. A card: the provider must say the first payment
 * succeeded (the page is never trusted), then the subscription is active for its period. The
 * balance: the first week moves through the ledger. Canceled but not ended: resumes, no charge.
 * Already running: answers its id, charging nothing (a repeated click).
 */
export async function createSubscription(
  deps: SubscriptionDeps,
  user: User,
  body: z.output<typeof CreateSubscriptionBody>,
): Promise<CreateSubscriptionResponse> {
  checkProduct(body.productId);
  const now = deps.clock();
  const sub = await findSubscription(deps, user.id);
  if (sub && isRunning(sub, now)) return sub.cancelAtPeriodEnd ? resume(deps, sub) : { subscriptionId: publicId(sub) };
  if (body.paymentMethod === 'balance') return payFromBalance(deps, user, now);

  const paymentIntentId = body.paymentIntentId;
  if (!paymentIntentId || !sub || sub.status !== 'incomplete' || sub.paymentIntentId !== paymentIntentId || !sub.providerSubscriptionId)
    throw paymentIncomplete();
  const provider = providerOf(deps, sub);
  const providerSubscriptionId = sub.providerSubscriptionId;
  if (!provider) throw paymentIncomplete();
  const intent = await callProvider(deps, () => provider.getPaymentIntent(paymentIntentId));
  if (intent.status === 'processing') throw paymentProcessing();
  if (intent.status !== 'succeeded' || intent.amountCents < SUBSCRIPTION_PRICE_CENTS) throw paymentIncomplete(402);
  if (intent.subscriptionId && intent.subscriptionId !== providerSubscriptionId) throw paymentIncomplete();
  const state = await callProvider(deps, () => provider.getSubscription(providerSubscriptionId));
  const periodEnd = state.currentPeriodEnd > now ? state.currentPeriodEnd : new Date(now.getTime() + SUBSCRIPTION_PERIOD_MS);

  const settled = await deps.db.transaction(async (em) => {
    const locked = await lockSubscription(em, { id: sub.id });
    if (!locked || locked.status === 'canceled') throw paymentIncomplete();
    if (locked.status === 'active') return locked; // the webhook settled it first
    const changes = {
      status: 'active' as const,
      currentPeriodEnd: laterEnd(locked.currentPeriodEnd, periodEnd),
      paymentIntentId: null,
      cancelAtPeriodEnd: false,
    };
    return saveSubscription(em, locked, changes, now);
  });
  return { subscriptionId: publicId(settled) };
}

/** The first week from the balance: the ledger's charge and the active subscription in one transaction. */
function payFromBalance(deps: SubscriptionDeps, user: User, now: Date): Promise<CreateSubscriptionResponse> {
  return deps.db.transaction(async (em) => {
    const current = await lockSubscription(em, { userId: user.id });
    // A racing twin paid first.
    if (current && isRunning(current, now)) return { subscriptionId: publicId(current) };
    if (current) await em.delete(SubscriptionEntity, { id: current.id });
    const sub = newSubscription(user.id, 'balance', now);
    await em.insert(SubscriptionEntity, { ...sub });
    await transfer(em, {
      from: userAccount(user.id),
      to: SYSTEM_SUBSCRIPTIONS,
      amountCents: SUBSCRIPTION_PRICE_CENTS,
      kind: 'subscription',
      actorUserId: user.id,
      reference: sub.id,
    });
    const active = await saveSubscription(
      em,
      sub,
      { status: 'active', currentPeriodEnd: new Date(now.getTime() + SUBSCRIPTION_PERIOD_MS) },
      now,
    );
    return { subscriptionId: publicId(active) };
  });
}

/** Takes back a cancel before the period ends: the subscription renews again, nothing is charged now. */
async function resume(deps: SubscriptionDeps, sub: Subscription): Promise<CreateSubscriptionResponse> {
  const state = await changeCancelAtProvider(deps, sub, false);
  const resumed = await deps.db.transaction(async (em) => {
    const locked = await lockSubscription(em, { id: sub.id });
    if (!locked || !isRunning(locked, deps.clock())) throw paymentIncomplete();
    if (!locked.cancelAtPeriodEnd) return locked;
    const end = state?.status === 'active' ? laterEnd(locked.currentPeriodEnd, state.currentPeriodEnd) : locked.currentPeriodEnd;
    return saveSubscription(em, locked, { cancelAtPeriodEnd: false, currentPeriodEnd: end }, deps.clock());
  });
  return { subscriptionId: publicId(resumed) };
}

/** Sets cancel-at-period-end at the provider (card subscriptions); the key changes with each change of the row. */
function changeCancelAtProvider(deps: SubscriptionDeps, sub: Subscription, cancel: boolean) {
  const provider = providerOf(deps, sub);
  const id = sub.providerSubscriptionId;
  if (!provider || !id) return Promise.resolve(null);
  const key = `${cancel ? 'cancel' : 'resume'}-${sub.id}-${sub.updatedAt.getTime()}`;
  return callProvider(deps, () => provider.setCancelAtPeriodEnd(id, cancel, key));
}

/**
 * POST /subscriptions/cancel: cancel at period end, so the benefits last until
 * `subscriptionEndDate` and then stop with no one acting (renewals.ts ends it). A past-due one
 * (nothing paid for now) ends at once. The ids the page sends must be the user's own.
 */
export async function cancelSubscription(
  deps: SubscriptionDeps,
  user: User,
  body: z.output<typeof CancelSubscriptionBody>,
): Promise<CancelSubscriptionResponse> {
  const now = deps.clock();
  const sub = await findSubscription(deps, user.id);
  if (body.stripeCustomerId && body.stripeCustomerId !== user.stripeCustomerId) throw forbidden();
  // The id the info call answers (the provider's, or ours for a balance-paid one) names it.
  if (body.stripeSubscriptionId && (!sub || body.stripeSubscriptionId !== publicId(sub))) throw forbidden();
  if (!sub || !(isRunning(sub, now) || sub.status === 'past_due')) throw notSubscribed();
  if (sub.cancelAtPeriodEnd) return { isCanceled: true };
  await changeCancelAtProvider(deps, sub, true);
  await deps.db.transaction(async (em) => {
    const locked = await lockSubscription(em, { id: sub.id });
    if (!locked || isOver(locked, now) || locked.cancelAtPeriodEnd) return;
    if (locked.status === 'past_due') await saveSubscription(em, locked, { status: 'canceled' }, now);
    else if (locked.status === 'active') await saveSubscription(em, locked, { cancelAtPeriodEnd: true }, now);
  });
  return { isCanceled: true };
}
