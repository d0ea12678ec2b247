import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardDepositRequest, MoneyHistoryKind } from '../../../api/contract/wallet';
import { randomUuid } from '../ids';
import { platform } from '../platform';
import { setSessionBalance } from './auth';
import { apiFetch, ApiError, call, idempotent, NETWORK_ERROR_MESSAGE } from './client';

/** Sandbox deposit: `amount` in dollars; `key` is a fresh Idempotency-Key per user action. */
export function deposit(userId: string, amount: number, key: string) {
  return call('POST /api/billing-settings-deposit', { body: { userId, balance: amount }, ...idempotent(key) });
}

/**
 * A card deposit: the sandbox's test card, or the saved card when `card` is absent; `key` is the
 * attempt's Idempotency-Key. Without `elements` the server answers the deposit itself, never a
 * PaymentIntent to confirm (that is card-elements.ts's call).
 */
export async function cardDeposit(body: CardDepositRequest, key: string) {
  const answer = await call('POST /api/wallet/card-deposit', { body, ...idempotent(key) });
  if (!('new_balance' in answer)) throw new ApiError(202, 'http_202', 'The card payment must be confirmed with Stripe Elements.');
  return answer;
}

export function getSavedCard(signal?: AbortSignal) {
  return call('GET /api/wallet/card', { signal });
}

/** The card saved for deposits (last 4 digits), or null. */
export function useSavedCard(userId: string) {
  return useQuery({
    queryKey: walletKeys.card(userId),
    queryFn: ({ signal }) => getSavedCard(signal).then((r) => r.card),
  });
}

/** Removes the saved card, at the provider too; the answer (no card) becomes the query's. */
export function useRemoveSavedCard(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('DELETE /api/wallet/card', {}),
    onSuccess: ({ card }) => queryClient.setQueryData(walletKeys.card(userId), card),
  });
}

export function withdraw(userId: string, amount: number, key: string) {
  return call('POST /api/billing-settings-withdrawal', { body: { balance: amount, userId }, ...idempotent(key) });
}

export type MoneyAction = 'deposit' | 'withdraw';

/** A deposit or a withdrawal (one Idempotency-Key per call); the answer's balance becomes the session's. */
export function useMoveMoney(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, amount }: { action: MoneyAction; amount: number }) =>
      (action === 'deposit' ? deposit : withdraw)(userId, amount, randomUuid()),
    onSuccess: ({ new_balance }) => {
      setSessionBalance(queryClient, new_balance);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    },
  });
}

// ---- money history ------------------------------------------------------------------------------

export const walletKeys = {
  all: ['wallet'] as const,
  history: (kind: MoneyHistoryKind | null) => [...walletKeys.all, 'history', kind ?? 'all'] as const,
  card: (userId: string) => [...walletKeys.all, 'card', userId] as const,
};

const HISTORY_PAGE = 30;

/** The CSV's query: the same filter as the page, without paging. */
function historyQuery(kind: MoneyHistoryKind | null): string {
  return kind ? `?${new URLSearchParams({ kind })}` : '';
}

export function getMoneyHistory(kind: MoneyHistoryKind | null, before: string | undefined, signal?: AbortSignal) {
  return call('GET /api/wallet/history', { query: { kind: kind ?? undefined, before, limit: HISTORY_PAGE }, signal });
}

/** The signed-in user's money history, newest first, a page at a time (optionally one kind only). */
export function useMoneyHistory(kind: MoneyHistoryKind | null) {
  return useInfiniteQuery({
    queryKey: walletKeys.history(kind),
    queryFn: ({ pageParam, signal }) => getMoneyHistory(kind, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Downloads the history (with the same filter) as CSV and offers it as a file. */
export async function downloadMoneyHistoryCsv(kind: MoneyHistoryKind | null): Promise<void> {
  let res: Response;
  try {
    res = await apiFetch(`/api/wallet/history.csv${historyQuery(kind)}`, { headers: { Accept: 'text/csv' } });
  } catch {
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
  }
  if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, res.statusText || 'Request failed');
  await platform.saveFile(`giftlink-money-history${kind ? `-${kind}` : ''}.csv`, await res.blob());
}
