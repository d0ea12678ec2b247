import { useState } from 'react';
import { GIVE_FAILED } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import type { useGive } from '../../api/links';
import { isDefiniteFailure, useCardDeposit, type CardPayment } from '../../components/card/useCardDeposit';
import { randomUuid } from '../../ids';

/**
 * Gives `amount`, first charging the card for what the balance is missing (useCardDeposit): a
 * deposit, then the gift, each with its own Idempotency-Key. The gift's key stays for a retry
 * after a network failure; a refusal, or another amount, gets a fresh one.
 */
export function useCardGive(give: ReturnType<typeof useGive>) {
  const deposit = useCardDeposit();
  const [attempt, setAttempt] = useState<{ amount: number; key: string }>(() => ({ amount: 0, key: randomUuid() }));
  const [error, setError] = useState<string | null>(null);

  /** Gives from the balance alone. */
  function giveNow(amount: number, note: string, onFailed?: () => void) {
    const key = attempt.amount === amount ? attempt.key : randomUuid();
    if (key !== attempt.key) setAttempt({ amount, key });
    give.mutate(
      { amount, key, note: note.trim() || undefined },
      {
        onError: (err) => {
          if (isDefiniteFailure(err)) setAttempt((a) => (a.key === key ? { amount, key: randomUuid() } : a));
          setError(errorMessage(err, GIVE_FAILED));
          onFailed?.();
        },
      },
    );
  }

  /** Charges the card for `charge` dollars, then gives `amount`. */
  async function chargeAndGive(amount: number, charge: number, payment: CardPayment, note: string) {
    setError(null);
    try {
      await deposit.charge(amount, charge, payment);
    } catch (err) {
      setError(errorMessage(err, GIVE_FAILED));
      return;
    }
    giveNow(amount, note);
  }

  return { giveNow, chargeAndGive, busy: deposit.charging || give.isPending, error, setError };
}
