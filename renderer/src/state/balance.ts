import { useCallback, useEffect } from 'react';
import { atom, useSetAtom, useStore } from 'jotai';
import { useQueryClient } from '@tanstack/react-query';
import { BALANCE_REFRESH_ERROR } from '../../../api/contract/texts';
import { sessionKeys } from '../api/auth';

/** PRODUCT.md §8: the balance could not be re-read after money moved. */
export { BALANCE_REFRESH_ERROR };

/** Whether the deposit/withdrawal modal is open (the top bar and every Add Funds button open it). */
export const balanceDialogOpenAtom = atom(false);

/** A balance error to show in a popup, or false. */
export const balanceErrorAtom = atom<false | string>(false);

/**
 * The balance is the session's (`balanceAtom`), pushed whenever money moves and re-read after a
 * reconnect. When such a re-read fails for a signed-in user, the app's popup says so — unless the
 * balance modal is open: it says so itself. Mounted once, in the app layout.
 */
export function useBalanceRefreshErrors(): void {
  const queryClient = useQueryClient();
  const store = useStore();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        if (event.query.queryKey[0] !== sessionKeys.me[0] || !event.query.state.data) return;
        if (!store.get(balanceDialogOpenAtom)) store.set(balanceErrorAtom, BALANCE_REFRESH_ERROR);
      }),
    [queryClient, store],
  );
}

export function useOpenBalanceDialog() {
  const setOpen = useSetAtom(balanceDialogOpenAtom);
  return useCallback(() => setOpen(true), [setOpen]);
}
