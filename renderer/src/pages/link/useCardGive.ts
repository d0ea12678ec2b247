import { useState } from 'react';
import { GIVE_FAILED } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import type { useGive } from '../../api/links';
import { isDefiniteFailure, useCardDeposit, type CardPayment } from '../../components/card/useCardDeposit';
import { randomUuid } from '../../ids';

/**
 * Gives `amount`, first authorising the card for what the balance is missing (useCardDeposit),
 * then the gift, which captures it where it lands; each call has its own Idempotency-Key. The gift's key stays for a retry
 * after a network failure; a refusal, or another amount, gets a fresh one.
 */
export function useCardGive(give: ReturnType<typeof useGive>) {
  const deposit = useCardDeposit();
  const [attempt, setAttempt] = useState<{ amount: number; key: string }>(() => ({ amount: 0, key: randomUuid() }));
  const [error, setError] = useState<string | null>(null);

  /** Gives from the balance alone, or with the card authorisation that pays the rest. */
  function giveNow(amount: number, note: string, onFailed?: () => void, authorisation?: string) {
    const key = attempt.amount === amount ? attempt.key : randomUuid();
    if (key !== attempt.key) setAttempt({ amount, key });
    give.mutate(
      { amount, key, note: note.trim() || undefined, authorisation },
      {
        onError: (err) => {
          if (isDefiniteFailure(err)) setAttempt((a) => (a.key === key ? { amount, key: randomUuid() } : a));
          setError(errorMessage(err, GIVE_FAILED));
          onFailed?.();
        },
      },
    );
  }

  /** Authorises the card for `charge` dollars towards `postId`, then gives `amount` with it. */
  async function chargeAndGive(postId: string, amount: number, charge: number, payment: CardPayment, note: string) {
    setError(null);
    let authorisation: string | undefined;
    try {
      authorisation = await deposit.charge(amount, charge, payment, { kind: 'give', postId, amount });
    } catch (err) {
      setError(errorMessage(err, GIVE_FAILED));
      return;
    }
    giveNow(amount, note, undefined, authorisation);
  }

  return { giveNow, chargeAndGive, busy: deposit.charging || give.isPending, error, setError };
}
