import { z } from 'zod';
import { SEARCH_MAX_LENGTH } from './limits.js';

/**
 * The marketplace product as the API answers it: eBay Browse's item shape, which the spec's
 * "Search product" entity uses. Both catalogue adapters answer exactly this.
 */

/** A decimal amount as a string with two decimals ("12.50"), and its ISO currency. */
export const Amount = z.object({
  value: z.string().regex(/^\d+\.\d{2}$/, 'must be a decimal amount such as 12.50'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO currency code'),
});
export type Amount = z.infer<typeof Amount>;

export const ShippingCostType = z.enum(['FIXED', 'CALCULATED']);
export type ShippingCostType = z.infer<typeof ShippingCostType>;

export const ShippingOption = z.object({
  shippingCostType: ShippingCostType,
  shippingCost: Amount,
});
export type ShippingOption = z.infer<typeof ShippingOption>;

/** An image URL: our own `/catalog/images/…` path (embedded) or an https URL (eBay). */
export const ImageRef = z.object({ imageUrl: z.string().max(2048) });
export type ImageRef = z.infer<typeof ImageRef>;

export const SearchProduct = z.object({
  itemId: z.string().min(1).max(100),
  title: z.string(),
  price: Amount,
  /** May be empty when the marketplace gives no usable shipping cost. */
  shippingOptions: z.array(ShippingOption),
  image: ImageRef,
  additionalImages: z.array(ImageRef),
  condition: z.string(),
  /** Plain text, never HTML. */
  description: z.string(),
});
export type SearchProduct = z.infer<typeof SearchProduct>;

/** What GET /api/products/search answers. */
export const SearchResults = z.array(SearchProduct);
export type SearchResults = z.infer<typeof SearchResults>;

export const SearchQuery = z.object({
  q: z
    .string({ error: 'Search for an item.' })
    .trim()
    .min(1, 'Search for an item.')
    .max(SEARCH_MAX_LENGTH, `Searches can be at most ${SEARCH_MAX_LENGTH} characters.`),
});

/** eBay ids look like `v1|110551100598|0`; ours follow the same form. */
export const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9|_.:-]{0,99}$/;

export const itemIdSchema = z.string().regex(ITEM_ID, 'itemId: is invalid');

export const ItemIdParams = z.object({ itemId: itemIdSchema });
