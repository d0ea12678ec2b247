import { centsToDollars } from '../../contract/money.js';
import { SUBSCRIPTION_PRICE_CENTS } from '../../contract/limits.js';
import type { Config } from '../config.js';
import type { User } from '../users/entity.js';
import type { Subscription } from './entity.js';
import { isSubscribed } from '../users/policy.js';
import { canJoinCommunity, entitled } from './policy.js';
import type { SubscriptionConfigResponse, SubscriptionInfo } from '../../contract/subscriptions.js';
import { isOver, publicId } from './state.js';

/**
 * The user's own subscription, for the subscription page (only ever presented to that user). A
 * subscription canceled at a period end that has passed reads 'canceled' even before the renewal
 * job marks it so; the community link is there for subscribers only (`canJoinCommunity`).
 */
export function presentSubscriptionInfo(
  sub: Subscription | null,
  user: User,
  now: Date,
  config: Pick<Config, 'communityInviteUrl'>,
): SubscriptionInfo {
  return {
    status: sub ? (isOver(sub, now) ? 'canceled' : sub.status) : null,
    subscriptionEndDate: sub?.currentPeriodEnd?.toISOString() ?? null,
    id: sub ? publicId(sub) : null,
    cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
    paymentMethod: sub?.paymentMethod ?? null,
    isSubscribed: isSubscribed(user, now),
    communityInviteUrl: canJoinCommunity(entitled(user, now)) ? (config.communityInviteUrl ?? null) : null,
  };
}

/** How the page takes a card: the sandbox is always test mode; Stripe is when its key is a test key. */
export function presentSubscriptionConfig(config: Pick<Config, 'payments' | 'stripe'>): SubscriptionConfigResponse {
  const price = centsToDollars(SUBSCRIPTION_PRICE_CENTS);
  if (config.payments !== 'stripe') return { provider: 'sandbox', testMode: true, publishableKey: null, price };
  const publishableKey = config.stripe?.publishableKey ?? null;
  return { provider: 'stripe', testMode: publishableKey?.startsWith('pk_test_') ?? true, publishableKey, price };
}
