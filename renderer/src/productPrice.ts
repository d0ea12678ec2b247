import { centsToDollars, productCents } from '../../api/contract/money';
import type { SearchProduct } from './api/types';

/** The first shipping option's cost in dollars, or null when the marketplace gives none. */
export function productShipping(product: SearchProduct): number | null {
  const { shipping } = productCents(product);
  return shipping === undefined ? null : centsToDollars(shipping);
}

/** PRODUCT.md §5: an item costs its price plus the first shipping cost. In dollars, to the cent. */
export function productTotal(product: SearchProduct): number {
  const { price, shipping } = productCents(product);
  return centsToDollars((price ?? 0) + (shipping ?? 0));
}
