import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MIN_AMOUNT_CENTS } from '../../../../api/contract/limits';
import { centsToDollars, dollarsToCents } from '../../../../api/contract/money';
import { GIVE_FAILED } from '../../../../api/contract/texts';
import { setSessionBalance } from '../../api/auth';
import { ApiError, errorMessage } from '../../api/client';
import type { useGive } from '../../api/links';
import { cardDeposit, walletKeys } from '../../api/wallet';
import { cardForConfirm, type CardInput } from '../../components/card/card';
import { randomUuid } from '../../ids';

/** How the shortfall is paid: the card typed in (optionally saved) or the saved card. */
export type CardPayment = { kind: 'card'; card: CardInput; save: boolean } | { kind: 'saved' };

/** What the card is charged for `amount` with `balance`: what is missing, at least the smallest deposit ($1). */
export function shortfallOf(amount: number, balance: number): number {
  const missing = (dollarsToCents(amount) ?? 0) - (dollarsToCents(balance) ?? 0);
  return missing <= 0 ? 0 : centsToDollars(Math.max(missing, MIN_AMOUNT_CENTS));
}

/** The server said no for good (nothing moved): the next press is a new attempt with a new key. */
const definite = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 409;

interface AttemptKeys {
  /** The amount these keys are for: another amount is another attempt. */
  amount: number;
  deposit: string;
  give: string;
}

const freshKeys = (amount: number): AttemptKeys => ({ amount, deposit: randomUuid(), give: randomUuid() });

/**
 * Gives `amount`, first charging the card for what the balance is missing: a deposit, then the
 * gift, each with the attempt's own Idempotency-Key. The keys stay for a retry after a network
 * failure (the server answers the first outcome, never a second charge); a decline or a refusal
 * gets a fresh one.
 */
export function useCardGive(give: ReturnType<typeof useGive>) {
  const queryClient = useQueryClient();
  const [keys, setKeys] = useState<AttemptKeys>(() => freshKeys(0));
  const [charging, setCharging] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const keysFor = (amount: number): AttemptKeys => {
    if (keys.amount === amount) return keys;
    const next = freshKeys(amount);
    setKeys(next);
    return next;
  };

  /** Gives from the balance alone. */
  function giveNow(amount: number, note: string, attempt = keysFor(amount), onFailed?: () => void) {
    give.mutate(
      { amount, key: attempt.give, note: note.trim() || undefined },
      {
        onError: (err) => {
          if (definite(err)) setKeys((k) => (k.give === attempt.give ? { ...k, give: randomUuid() } : k));
          setError(errorMessage(err, GIVE_FAILED));
          onFailed?.();
        },
      },
    );
  }

  /** Charges the card for `charge` dollars, then gives `amount`. */
  async function chargeAndGive(amount: number, charge: number, payment: CardPayment, note: string) {
    const attempt = keysFor(amount);
    setError(null);
    setCharging(true);
    try {
      const body =
        payment.kind === 'card' ? { amount: charge, card: toDeposit(payment.card), save: payment.save || undefined } : { amount: charge };
      const { new_balance } = await cardDeposit(body, attempt.deposit);
      setSessionBalance(queryClient, new_balance);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      if (definite(err)) setKeys((k) => (k.deposit === attempt.deposit ? { ...k, deposit: randomUuid() } : k));
      setError(errorMessage(err, GIVE_FAILED));
      return;
    } finally {
      setCharging(false);
    }
    giveNow(amount, note, attempt);
  }

  return { giveNow, chargeAndGive, busy: charging || give.isPending, error, setError };
}

function toDeposit(card: CardInput) {
  const { cardNumber, expiry, cvc } = cardForConfirm(card);
  return { number: cardNumber, expiry, cvc };
}
