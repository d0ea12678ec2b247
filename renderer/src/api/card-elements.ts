import type { CardDepositRequest, CardDepositStarted, ConfirmCardDepositRequest } from '../../../api/contract/wallet';
import { api, idempotent } from './client';
import type { NewBalanceResponse } from './types';

// The wallet's Stripe Elements calls, apart from wallet.ts: only the lazy Stripe form loads them.

/** A card deposit confirmed with Stripe Elements: the PaymentIntent to confirm (or, for a key already paid, the deposit). */
export function startCardElementsDeposit(body: CardDepositRequest & { elements: true }, key: string) {
  return api.post<CardDepositStarted | NewBalanceResponse>('/api/wallet/card-deposit', body, idempotent(key));
}

/** The page confirmed its PaymentIntent with Stripe.js: the server reads it and credits the deposit. */
export function confirmCardDeposit(paymentIntentId: string) {
  return api.post<NewBalanceResponse>('/api/wallet/card-deposit/confirm', { paymentIntentId } satisfies ConfirmCardDepositRequest);
}
