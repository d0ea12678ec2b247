import { QueryClient, type FetchQueryOptions, type Query, type QueryKey } from '@tanstack/react-query';

/**
 * The app's one QueryClient (provided at the root in main.tsx). Server state lives in its cache;
 * each capability's keys and hooks are in `api/<capability>.ts`.
 *
 * - No automatic retries: a failure shows the spec's error text at once, with its own Try again.
 * - No refetch on window focus: several reads have effects on the server (opening a thread marks
 *   it read, opening a link counts a view), so they happen when a screen asks, not when a tab
 *   comes back. What changes while the user looks arrives over the socket (state/realtime.ts).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** How long an answer read ahead of the first render counts as the first screen's own read. */
const READ_AHEAD_MS = 5_000;
/** When each query read ahead of the first render was read (by query hash). */
const readAheadAt = new Map<string, number>();

/**
 * Reads a query before the app's first render (boot.tsx: a shared page's session and data), so the
 * page renders in place of the server's markup with its data, without a spinner in between. A
 * failure stays in the cache for the page to show.
 */
export async function readAhead<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
): Promise<void> {
  await queryClient.prefetchQuery(options);
  markReadAhead(queryClient, options.queryKey);
}

/** Notes that the query at `queryKey`, if it has an answer, was read ahead of the first screen. */
export function markReadAhead(queryClient: QueryClient, queryKey: QueryKey): void {
  const query = queryClient.getQueryCache().find({ queryKey, exact: true });
  if (query?.state.status === 'success') readAheadAt.set(query.queryHash, Date.now());
}

/**
 * Puts an answer known without asking in the cache (the page's server already said it), as
 * `readAhead` would have read it: the first screen uses it as is.
 */
export function answerAhead<T>(queryClient: QueryClient, queryKey: QueryKey, data: T): void {
  queryClient.setQueryData(queryKey, data);
  markReadAhead(queryClient, queryKey);
}

/**
 * `refetchOnMount` for a query a first screen may find read ahead: that screen uses the answer as
 * is (reading a link again would count its view twice); any later mount, or one after something
 * changed it (an invalidation), reads it again as usual.
 */
export const unlessReadAhead = (query: Pick<Query, 'queryHash' | 'state'>): boolean =>
  query.state.isInvalidated || Date.now() - (readAheadAt.get(query.queryHash) ?? 0) > READ_AHEAD_MS;
