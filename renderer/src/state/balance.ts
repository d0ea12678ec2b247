import { useCallback } from 'react';
import { atom, useSetAtom } from 'jotai';
import { getBalance } from '../api/wallet';
import { setBalanceAtom } from './session';

/** SPEC section 8: the balance could not be read after login. */
export const BALANCE_FETCH_ERROR = 'Error fetching user balance.';
/** SPEC section 8: the balance could not be re-read after money moved. */
export const BALANCE_REFRESH_ERROR = 'error updating the balance, please try again later.';

/** Whether the deposit/withdrawal modal is open (the top bar and every Add Funds button open it). */
export const balanceDialogOpenAtom = atom(false);

/** A balance error to show in a popup, or false. */
export const balanceErrorAtom = atom<false | string>(false);

/**
 * Re-reads the balance from the API into the balance atom. Resolves true on success; on failure
 * shows `errorText` in the app's popup unless it is null (the caller then shows it itself).
 */
export function useRefreshBalance() {
  const setBalance = useSetAtom(setBalanceAtom);
  const setError = useSetAtom(balanceErrorAtom);
  return useCallback(
    async (errorText: string | null = BALANCE_REFRESH_ERROR, signal?: AbortSignal): Promise<boolean> => {
      try {
        const { balance } = await getBalance(signal);
        setBalance(balance);
        return true;
      } catch {
        if (signal?.aborted) return false;
        if (errorText) setError(errorText);
        return false;
      }
    },
    [setBalance, setError],
  );
}

export function useOpenBalanceDialog() {
  const setOpen = useSetAtom(balanceDialogOpenAtom);
  return useCallback(() => setOpen(true), [setOpen]);
}
