import { api, idempotent } from './client';
import type { BalanceResponse, NewBalanceResponse } from './types';

/** The signed-in user's balance in dollars. */
export function getBalance(signal?: AbortSignal) {
  return api.get<BalanceResponse>('/api/billing-settings-balance', { signal });
}

/** Sandbox deposit: `amount` in dollars; `key` is a fresh Idempotency-Key per user action. */
export function deposit(userId: string, amount: number, key: string) {
  return api.post<NewBalanceResponse>('/api/billing-settings-deposit', { userId, balance: amount }, idempotent(key));
}

export function withdraw(userId: string, amount: number, key: string) {
  return api.post<NewBalanceResponse>('/api/billing-settings-withdrawal', { balance: amount, userId }, idempotent(key));
}
