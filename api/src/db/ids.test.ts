import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { appendedRowId } from './ids.js';

describe('appendedRowId', () => {
  it('makes valid UUIDv7s, all different, each sorting after the one before (within a millisecond too)', () => {
    const ids = Array.from({ length: 20_000 }, () => appendedRowId());
    for (const id of [ids[0], ids[9_999], ids[19_999]]) {
      expect(validate(id), id).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // More ids than milliseconds went by: many share one, and still sort in the order they were made.
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBeLessThan(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('begins with the time it was made', () => {
    const before = Date.now();
    const id = appendedRowId();
    const msecs = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('draws fresh random bits for every id (the pool is not reused)', () => {
    const tails = new Set(Array.from({ length: 5_000 }, () => appendedRowId().slice(-12)));
    expect(tails.size).toBe(5_000);
  });
});
