import { useMutation, useQueryClient } from '@tanstack/react-query';
import { randomUuid } from '../ids';
import { setSessionBalance } from './auth';
import { api, idempotent } from './client';
import type { NewBalanceResponse } from './types';

/** Sandbox deposit: `amount` in dollars; `key` is a fresh Idempotency-Key per user action. */
export function deposit(userId: string, amount: number, key: string) {
  return api.post<NewBalanceResponse>('/api/billing-settings-deposit', { userId, balance: amount }, idempotent(key));
}

export function withdraw(userId: string, amount: number, key: string) {
  return api.post<NewBalanceResponse>('/api/billing-settings-withdrawal', { balance: amount, userId }, idempotent(key));
}

export type MoneyAction = 'deposit' | 'withdraw';

/** A deposit or a withdrawal (one Idempotency-Key per call); the answer's balance becomes the session's. */
export function useMoveMoney(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, amount }: { action: MoneyAction; amount: number }) =>
      (action === 'deposit' ? deposit : withdraw)(userId, amount, randomUuid()),
    onSuccess: ({ new_balance }) => setSessionBalance(queryClient, new_balance),
  });
}
