import { describe, expect, it } from 'vitest';
import { canJoinThrough } from './policy.js';

describe('canJoinThrough', () => {
  const when = new Date('2026-01-01T00:00:00Z');
  it.each([
    // owner's setting (null: no such user), closed, suspended, expected
    [true, false, false, true],
    [false, false, false, false],
    [true, true, false, false],
    [true, false, true, false],
    [null, false, false, false],
  ])('setting %s, closed %s, suspended %s: %s', (setting, closed, suspended, expected) => {
    const owner =
      setting === null ? null : { letVisitorsJoin: setting, closedAt: closed ? when : null, suspendedAt: suspended ? when : null };
    expect(canJoinThrough(owner)).toBe(expected);
  });
});
