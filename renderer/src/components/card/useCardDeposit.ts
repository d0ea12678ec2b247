import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MIN_AMOUNT_CENTS } from '../../../../api/contract/limits';
import { centsToDollars, dollarsToCents } from '../../../../api/contract/money';
import { setSessionBalance } from '../../api/auth';
import { ApiError } from '../../api/client';
import { cardDeposit, walletKeys } from '../../api/wallet';
import { randomUuid } from '../../ids';
import { cardForConfirm, type CardInput } from './card';
import type { ElementsPayment } from './StripeCardForm';

/** How the shortfall is paid: the card typed in the sandbox's form or in Stripe Elements (optionally saved), or the saved card. */
export type CardPayment = { kind: 'card'; card: CardInput; save: boolean } | ElementsPayment | { kind: 'saved' };

/** The Stripe Elements module (its form, and its deposit): loaded only when the form is shown. */
export const loadStripeCardForm = () => import('./StripeCardForm');

/** What the card is charged for `amount` with `balance`: what is missing, at least the smallest deposit ($1). */
export function shortfallOf(amount: number, balance: number): number {
  const missing = (dollarsToCents(amount) ?? 0) - (dollarsToCents(balance) ?? 0);
  return missing <= 0 ? 0 : centsToDollars(Math.max(missing, MIN_AMOUNT_CENTS));
}

/** The server said no for good (nothing moved): the next press is a new attempt with a new key. */
export const isDefiniteFailure = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 409;

/**
 * The first half of a one-step gift: the card pays what the balance is missing, with the
 * attempt's Idempotency-Key. The key stays for a retry after a network failure (the server
 * answers the first outcome, never a second charge); a decline or a refusal gets a fresh one, as
 * does another amount.
 */
export function useCardDeposit() {
  const queryClient = useQueryClient();
  const [attempt, setAttempt] = useState<{ amount: number; key: string }>(() => ({ amount: 0, key: randomUuid() }));
  const [charging, setCharging] = useState(false);

  /** Charges `dollars` towards giving `amount`; the new balance becomes the session's. Throws what failed. */
  async function charge(amount: number, dollars: number, payment: CardPayment): Promise<void> {
    const key = attempt.amount === amount ? attempt.key : randomUuid();
    if (key !== attempt.key) setAttempt({ amount, key });
    setCharging(true);
    try {
      const { new_balance } =
        payment.kind === 'elements'
          ? await (await loadStripeCardForm()).depositWithElements(dollars, payment, key)
          : await cardDeposit(
              payment.kind === 'card'
                ? { amount: dollars, card: toDeposit(payment.card), save: payment.save || undefined }
                : { amount: dollars },
              key,
            );
      setSessionBalance(queryClient, new_balance);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      if (isDefiniteFailure(err)) setAttempt((a) => (a.key === key ? { amount, key: randomUuid() } : a));
      throw err;
    } finally {
      setCharging(false);
    }
  }

  return { charge, charging };
}

function toDeposit(card: CardInput) {
  const { cardNumber, expiry, cvc } = cardForConfirm(card);
  return { number: cardNumber, expiry, cvc };
}
