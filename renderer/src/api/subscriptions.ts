import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SandboxConfirmRequest, SubscriptionPaymentMethod } from '../../../api/contract/subscriptions';
import { SUBSCRIPTION_PRODUCT_ID } from '../../../api/contract/limits';
import { refreshSession } from './auth';
import { call, idempotent } from './client';

/** The weekly subscription (PRODUCT.md §7): the four calls, the page's config and the sandbox card confirm. */

export function getSubscriptionConfig(signal?: AbortSignal) {
  return call('GET /subscriptions/config', { signal });
}

export function getSubscriptionInfo(userId: string, signal?: AbortSignal) {
  return call('GET /subscriptions/get-subscription-info/:userId', { params: { userId }, signal });
}

export function createPaymentIntent(userId: string, key: string) {
  return call('POST /subscriptions/create-payment-intent', { body: { userId, productId: SUBSCRIPTION_PRODUCT_ID }, ...idempotent(key) });
}

export function createSubscription(
  userId: string,
  input: { paymentMethod: SubscriptionPaymentMethod; paymentIntentId?: string },
  key: string,
) {
  return call('POST /subscriptions/create-subscription', {
    body: { userId, productId: SUBSCRIPTION_PRODUCT_ID, ...input },
    ...idempotent(key),
  });
}

/** The sandbox's stand-in for Stripe's confirmCardPayment (PAYMENTS=sandbox only). */
export function confirmSandboxPayment(body: SandboxConfirmRequest) {
  return call('POST /subscriptions/sandbox/confirm', { body });
}

export function cancelSubscription(userId: string, ids: { stripeCustomerId: string | null; stripeSubscriptionId: string | null }) {
  return call('POST /subscriptions/cancel', { body: { userId, ...ids } });
}

// ---- the query cache ----------------------------------------------------------------------------

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  config: ['subscriptions', 'config'] as const,
  info: (userId: string) => ['subscriptions', 'info', userId] as const,
};

/** How the page takes a card (sandbox or Stripe) and the weekly price. */
export function useSubscriptionConfig(enabled = true) {
  return useQuery({
    queryKey: subscriptionKeys.config,
    queryFn: ({ signal }) => getSubscriptionConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}

/** The signed-in user's subscription: status, end date, community link. */
export function useSubscriptionInfo(userId: string | null) {
  return useQuery({
    queryKey: subscriptionKeys.info(userId ?? ''),
    queryFn: ({ signal }) => getSubscriptionInfo(userId ?? '', signal).then((r) => r.subscriptionInfo),
    enabled: userId !== null,
  });
}

/**
 * After a subscribe, resume or cancel: re-read the subscription and the session (which carries
 * `isSubscribed`, and the balance a balance payment moved), and forget profiles and links seen
 * with the old entitlements.
 */
export async function afterSubscriptionChange(queryClient: ReturnType<typeof useQueryClient>): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
    refreshSession(queryClient),
    queryClient.invalidateQueries({ queryKey: ['users'] }),
    queryClient.invalidateQueries({ queryKey: ['links'] }),
  ]);
}

/** Cancel at period end: benefits last until the end date. */
export function useCancelSubscription(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: { stripeCustomerId: string | null; stripeSubscriptionId: string | null }) => cancelSubscription(userId, ids),
    onSettled: () => afterSubscriptionChange(queryClient),
  });
}
