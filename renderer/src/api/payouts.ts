import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SandboxBankBody } from '../../../api/contract/payouts';
import { call } from './client';

export function getPayouts(refresh: boolean, signal?: AbortSignal) {
  return call('GET /api/payouts', { query: { refresh: refresh ? 'true' : undefined }, signal });
}

/** Where to send the user to set up payouts: Stripe's hosted onboarding, or the sandbox's page of ours. */
export function startOnboarding() {
  return call('POST /api/payouts/onboarding', { body: {} });
}

/** Where to send the user to change their bank account: Stripe's Express Dashboard, or the sandbox's bank form. */
export function openDashboard() {
  return call('POST /api/payouts/dashboard', { body: {} });
}

export function completeSandboxBank(body: SandboxBankBody) {
  return call('POST /api/payouts/sandbox/complete', { body });
}

export const payoutKeys = { all: ['payouts'] as const };

/** The user's payouts status; `refresh` asks Stripe again (the page onboarding returns to). */
export function usePayouts(refresh = false) {
  return useQuery({
    queryKey: [...payoutKeys.all, refresh],
    queryFn: ({ signal }) => getPayouts(refresh, signal),
    // Back from Stripe's dashboard in another window, Settings shows the bank its webhook left.
    refetchOnWindowFocus: !refresh,
  });
}

export function useStartOnboarding() {
  return useMutation({ mutationFn: startOnboarding });
}

export function useOpenDashboard() {
  return useMutation({ mutationFn: openDashboard });
}

export function useCompleteSandboxBank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeSandboxBank,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
  });
}
