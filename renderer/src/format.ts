const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `12.5` → `$12.50`. */
export function formatDollars(amount: number): string {
  return dollars.format(Number.isFinite(amount) ? amount : 0);
}
