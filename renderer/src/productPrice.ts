import type { SearchProduct } from './api/types';

/** The first shipping option's cost in dollars, or null when the marketplace gives none. */
export function productShipping(product: SearchProduct): number | null {
  const value = product.shippingOptions[0]?.shippingCost?.value;
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** SPEC section 5: an item costs its price plus the first shipping cost. In dollars, to the cent. */
export function productTotal(product: SearchProduct): number {
  const cents = Math.round(Number(product.price.value) * 100) + Math.round((productShipping(product) ?? 0) * 100);
  return cents / 100;
}
