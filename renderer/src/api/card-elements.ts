import type { CardDepositRequest, ConfirmCardDepositRequest } from '../../../api/contract/wallet';
import { call, idempotent } from './client';

// The wallet's Stripe Elements calls, apart from wallet.ts: only the lazy Stripe form loads them.

/** A card deposit confirmed with Stripe Elements: the PaymentIntent to confirm (or, for a key already paid, the deposit). */
export function startCardElementsDeposit(body: CardDepositRequest & { elements: true }, key: string) {
  return call('POST /api/wallet/card-deposit', { body, ...idempotent(key) });
}

/** The page confirmed its PaymentIntent with Stripe.js: the server reads it and credits the deposit. */
export function confirmCardDeposit(paymentIntentId: string) {
  return call('POST /api/wallet/card-deposit/confirm', { body: { paymentIntentId } satisfies ConfirmCardDepositRequest });
}
