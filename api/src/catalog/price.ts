/** Integer cents ↔ the marketplace's decimal strings ("12.50"), without floating point. */

const DECIMAL = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** "12.5" → 1250, 7 → 700; undefined for anything that is not a non-negative amount with ≤ 2 decimals. */
export function toCents(value: string | number): number | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1250 → "12.50". */
export function centsToValue(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
