import { AppError } from '../errors.js';
import type { SearchProduct } from './schemas.js';

export const SEARCH_DEFAULT_LIMIT = 30;
export const SEARCH_MAX_LIMIT = 50;

/**
 * The marketplace catalogue: eBay's Browse API (CATALOG=ebay) or the embedded catalogue shipped in
 * resources/catalog (the default, offline). Both answer the spec's product shape.
 */
export interface Catalog {
  readonly kind: 'embedded' | 'ebay';
  /**
   * Products whose text holds every word of `q` (case-insensitive), best matches first.
   * `limit` defaults to SEARCH_DEFAULT_LIMIT and is capped at SEARCH_MAX_LIMIT.
   */
  search(q: string, limit?: number): Promise<SearchProduct[]>;
  /** One product by its id, or null when the marketplace has no such item. */
  getItem(itemId: string): Promise<SearchProduct | null>;
  /** Origins the product images come from, for the site's Content-Security-Policy. */
  readonly imageOrigins: string[];
}

/** The marketplace failed or answered something we cannot read: a 502 with a message for a person. */
export const marketplaceUnavailable = () =>
  new AppError(502, 'marketplace_unavailable', 'The marketplace is not responding. Please try again later.');

export const clampLimit = (limit: number | undefined): number =>
  Math.max(1, Math.min(SEARCH_MAX_LIMIT, Math.floor(limit ?? SEARCH_DEFAULT_LIMIT)));
