import { useQuery } from '@tanstack/react-query';
import { call } from './client';

export { SEARCH_MAX_LENGTH } from '../../../api/contract/limits';

/**
 * The contract's blocklist (the same word list the API refuses), loaded on demand: its dataset
 * is large, and only the search bar needs it.
 */
export function loadBlocklist() {
  return import('../../../api/contract/blocklist');
}

/** The message a blocked search shows ('Haha noo...'), or null when the query may be searched. */
export async function blockedQueryMessage(q: string): Promise<string | null> {
  const { BLOCKED_QUERY_MESSAGE, isBlockedQuery } = await loadBlocklist();
  return isBlockedQuery(q) ? BLOCKED_QUERY_MESSAGE : null;
}

export function searchProducts(q: string, signal?: AbortSignal) {
  return call('GET /api/products/search', { query: { q }, signal });
}

// ---- the query cache ----------------------------------------------------------------------------

export const catalogKeys = {
  all: ['catalog'] as const,
  search: (q: string) => [...catalogKeys.all, 'search', q] as const,
};

/** A search refused before any request: its message is the blocklist's ('Haha noo...'). */
export class BlockedSearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedSearchError';
  }
}

/** The catalogue's answer to a submitted search (none while `q` is null); a blocked one fails with BlockedSearchError. */
export function useProductSearch(q: string | null) {
  return useQuery({
    queryKey: catalogKeys.search(q ?? ''),
    queryFn: async ({ signal }) => {
      const blocked = await blockedQueryMessage(q ?? '');
      if (blocked) throw new BlockedSearchError(blocked);
      return searchProducts(q ?? '', signal);
    },
    enabled: q !== null,
  });
}
