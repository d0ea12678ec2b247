import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from '../../../renderer/src/format.js';
import { relativeTime } from './pages.js';

const HOUR = 3600;

describe("a shared page's relative time (api/contract/time.ts on both sides)", () => {
  it('reads the same in the markup a visitor first sees and in the app that replaces it', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    for (const seconds of [0, 9, 10, 45, 61, 3599, 3600, 7200, 86_399, 86_400, 600_000, 604_800, 2_700_000, 40_000_000]) {
      const then = new Date(now.getTime() - seconds * 1000);
      expect(relativeTime(then, now), `${seconds} s`).toBe(formatRelativeTime(then, now.getTime(), 'en'));
    }
    expect(relativeTime(new Date(now.getTime() - 2 * HOUR * 1000), now)).toBe('2 hours ago');
  });
});
