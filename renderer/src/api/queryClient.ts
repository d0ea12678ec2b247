import { QueryClient } from '@tanstack/react-query';

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
