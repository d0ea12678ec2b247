import type { Deps } from '../deps.js';
import type { Subscription } from './entity.js';
import type { ProviderSubscriptionState } from '../payments/provider.js';
import { laterEnd, lockSubscription, saveSubscription } from './state.js';

/**
 * What the payment provider tells us (Stripe's verified webhook events), settled into
 * our subscription. Each call is one transaction and idempotent (the same event twice changes
 * nothing more), and none resurrects a canceled subscription: a late `invoice.paid` or
 * `customer.subscription.updated` for a canceled one changes nothing. A period end only ever
 * moves forward. Each answers the subscription as it now is, or null when the event named a
 * subscription we do not know or changed nothing.
 */
export type SettleDeps = Pick<Deps, 'db' | 'clock'>;

/** Settles `work` on the subscription `providerSubscriptionId` names, unless it is unknown or canceled. */
function settle(
  deps: SettleDeps,
  providerSubscriptionId: string,
  work: (sub: Subscription) => Partial<Subscription> | null,
): Promise<Subscription | null> {
  return deps.db.transaction(async (em) => {
    const sub = await lockSubscription(em, { providerSubscriptionId });
    if (!sub || sub.status === 'canceled') return null;
    const changes = work(sub);
    if (!changes) return null;
    return saveSubscription(em, sub, changes, deps.clock());
  });
}

/** `invoice.paid`: the period up to `periodEnd` is paid; the subscription is active until then. */
export function settleInvoicePaid(
  deps: SettleDeps,
  input: { providerSubscriptionId: string; periodEnd: Date },
): Promise<Subscription | null> {
  return settle(deps, input.providerSubscriptionId, (sub) => ({
    status: 'active',
    paymentIntentId: null,
    currentPeriodEnd: laterEnd(sub.currentPeriodEnd, input.periodEnd),
  }));
}

/**
 * `invoice.payment_failed`: a renewal was not paid, so an active subscription is past due and its
 * benefits stop until it is paid. A first payment that failed leaves it incomplete (the page asks
 * for another card).
 */
export function settleInvoicePaymentFailed(deps: SettleDeps, input: { providerSubscriptionId: string }): Promise<Subscription | null> {
  return settle(deps, input.providerSubscriptionId, (sub) => (sub.status === 'active' ? { status: 'past_due' } : null));
}

/** Our status for the provider's. */
function statusOf(state: ProviderSubscriptionState['status']): Subscription['status'] {
  switch (state) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    case 'incomplete':
      return 'incomplete';
  }
}

/**
 * `customer.subscription.updated`: the provider's view of the subscription (status, period end,
 * cancel at period end). A late 'incomplete' never undoes a subscription that was already paid.
 */
export function settleSubscriptionUpdated(deps: SettleDeps, state: ProviderSubscriptionState): Promise<Subscription | null> {
  return settle(deps, state.subscriptionId, (sub) => {
    const status = statusOf(state.status);
    if (status === 'incomplete' && sub.status !== 'incomplete') return { cancelAtPeriodEnd: state.cancelAtPeriodEnd };
    return {
      status,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      currentPeriodEnd: status === 'active' ? laterEnd(sub.currentPeriodEnd, state.currentPeriodEnd) : sub.currentPeriodEnd,
      ...(status === 'active' ? { paymentIntentId: null } : {}),
    };
  });
}

/** `customer.subscription.deleted`: the subscription is over (at its period end, or ended early by the provider). */
export function settleSubscriptionDeleted(deps: SettleDeps, input: { providerSubscriptionId: string }): Promise<Subscription | null> {
  return settle(deps, input.providerSubscriptionId, () => ({ status: 'canceled', cancelAtPeriodEnd: false }));
}
