import { api } from './client';
import type * as CatalogSchemas from '../../../api/src/catalog/schemas';
import type { SearchResults } from './types';

/**
 * The API's SEARCH_MAX_LENGTH (catalog/schemas.ts). Written out rather than imported: that module
 * is zod at run time, which the screens do not need; the type keeps the two equal.
 */
export const SEARCH_MAX_LENGTH: typeof CatalogSchemas.SEARCH_MAX_LENGTH = 100;

/**
 * The API's own blocklist (the same word list the server refuses), loaded on demand: its
 * dataset is large, and only the search bar needs it.
 */
export function loadBlocklist() {
  return import('../../../api/src/catalog/blocklist');
}

/** The message a blocked search shows ('Haha noo...'), or null when the query may be searched. */
export async function blockedQueryMessage(q: string): Promise<string | null> {
  const { BLOCKED_QUERY_MESSAGE, isBlockedQuery } = await loadBlocklist();
  return isBlockedQuery(q) ? BLOCKED_QUERY_MESSAGE : null;
}

export function searchProducts(q: string, signal?: AbortSignal) {
  return api.get<SearchResults>(`/api/products/search?q=${encodeURIComponent(q)}`, { signal });
}
