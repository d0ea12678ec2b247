import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import { BLOCKED_QUERY_MESSAGE, isBlockedQuery } from '../../contract/blocklist.js';
import type { Catalog } from './catalog.js';
import { EbayCatalog } from './ebay.js';
import { EmbeddedCatalog } from './embedded.js';
import type { SearchProduct } from '../../contract/catalog.js';

/** Builds the configured catalogue; the embedded one is loaded into the database first. */
export async function openCatalog(config: Config, db: Database, log: Logger): Promise<Catalog> {
  if (config.catalog === 'ebay' && config.ebay) return new EbayCatalog(config.ebay, log);
  const embedded = new EmbeddedCatalog(db, config.catalogDir, log);
  await embedded.load();
  return embedded;
}

/** A person's product search: adult and profane queries are refused before any marketplace sees them. */
export async function searchProducts(catalog: Catalog, q: string): Promise<SearchProduct[]> {
  if (isBlockedQuery(q)) throw badRequest(BLOCKED_QUERY_MESSAGE, 'blocked_query');
  return catalog.search(q);
}

export const ITEM_UNAVAILABLE = "There was an error loading this item's information. Please try again later.";

/** One product, or a 404 with the spec's wishlist text. */
export async function findProduct(catalog: Catalog, itemId: string): Promise<SearchProduct> {
  const product = await catalog.getItem(itemId);
  if (!product) throw notFound(ITEM_UNAVAILABLE);
  return product;
}
