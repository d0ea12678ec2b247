import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardResponse, OnboardingResponse, PayoutsResponse, SandboxBankBody } from '../../../api/contract/payouts';
import { api } from './client';

export type { PayoutsResponse };

export function getPayouts(refresh: boolean, signal?: AbortSignal) {
  return api.get<PayoutsResponse>(refresh ? '/api/payouts?refresh=true' : '/api/payouts', { signal });
}

/** Where to send the user to set up payouts: Stripe's hosted onboarding, or the sandbox's page of ours. */
export function startOnboarding() {
  return api.post<OnboardingResponse>('/api/payouts/onboarding', {});
}

/** Where to send the user to change their bank account: Stripe's Express Dashboard, or the sandbox's bank form. */
export function openDashboard() {
  return api.post<DashboardResponse>('/api/payouts/dashboard', {});
}

export function completeSandboxBank(body: SandboxBankBody) {
  return api.post<PayoutsResponse>('/api/payouts/sandbox/complete', body);
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
