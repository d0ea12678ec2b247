import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MIN_AMOUNT_CENTS } from '../../../../api/contract/limits';
import { centsToDollars, dollarsToCents } from '../../../../api/contract/money';
import { setSessionBalance } from '../../api/auth';
import { ApiError } from '../../api/client';
import type { CardDepositRequest } from '../../../../api/contract/wallet';
import { cardDeposit, walletKeys } from '../../api/wallet';
import { randomUuid } from '../../ids';
import { cardForConfirm, type CardInput } from './card';
import type { ElementsPayment } from './StripeCardForm';

/** What the card pays for (a give or a wishlist item), checked by the server before the card is touched. */
export type GiftTarget = NonNullable<CardDepositRequest['for']>;

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

  /**
   * Pays `dollars` towards giving `amount` to `target`: the server checks the gift can land
   * first, then only authorises the card; the answer's authorisation goes with the gift, which
   * captures it where it lands. Throws what failed.
   */
  async function charge(amount: number, dollars: number, payment: CardPayment, target: GiftTarget): Promise<string | undefined> {
    const key = attempt.amount === amount ? attempt.key : randomUuid();
    if (key !== attempt.key) setAttempt({ amount, key });
    setCharging(true);
    try {
      const answer =
        payment.kind === 'elements'
          ? await (await loadStripeCardForm()).depositWithElements(dollars, payment, key, target)
          : await cardDeposit(
              payment.kind === 'card'
                ? { amount: dollars, card: toDeposit(payment.card), save: payment.save || undefined, for: target }
                : { amount: dollars, for: target },
              key,
            );
      setSessionBalance(queryClient, answer.new_balance);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      return answer.authorisation;
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
