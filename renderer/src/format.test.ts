import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { msUntilTimeLeftChanges } from '../../api/contract/time';
import { formatTimeLeft } from './format';

const START = Date.parse('2026-12-02T10:00:00.000Z');
const expiresAt = new Date(START + 4 * 3_600_000).toISOString();

describe('formatTimeLeft', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());

  it('counts a 4-hour link down in hours and minutes as the clock moves', () => {
    const left = () => formatTimeLeft(expiresAt, Date.now(), 'en');
    expect(left()).toBe('Expires in 4 hours');
    vi.advanceTimersByTime(30_000);
    expect(left()).toBe('Expires in 4 hours');
    vi.advanceTimersByTime(30_000);
    expect(left()).toBe('Expires in 3 hours 59 minutes');
    vi.advanceTimersByTime(2 * 3_600_000 + 58 * 60_000);
    expect(left()).toBe('Expires in 1 hour 1 minute');
    vi.advanceTimersByTime(60_000);
    expect(left()).toBe('Expires in 1 hour');
    vi.advanceTimersByTime(60_000);
    expect(left()).toBe('Expires in 59 minutes');
    vi.advanceTimersByTime(58 * 60_000 + 59_000);
    expect(left()).toBe('Expires in 1 minute');
    vi.advanceTimersByTime(1000);
    expect(left()).toBe('Expired');
    vi.advanceTimersByTime(3_600_000);
    expect(left()).toBe('Expired');
  });

  it('speaks Chinese with the same unit words as the relative times', () => {
    expect(formatTimeLeft(expiresAt, START + 3_600_000 - 12 * 60_000, 'zh')).toBe('3小时12分钟后过期');
    expect(formatTimeLeft(expiresAt, START + 3 * 3_600_000 + 60_000, 'zh')).toBe('59分钟后过期');
    expect(formatTimeLeft(expiresAt, START + 5 * 3_600_000, 'zh')).toBe('已过期');
  });

  it('reads an unreadable expiry as expired', () => {
    expect(formatTimeLeft('not a time', START, 'en')).toBe('Expired');
  });
});

describe('msUntilTimeLeftChanges', () => {
  it('waits until the next whole minute left, when the text changes', () => {
    expect(msUntilTimeLeftChanges(4 * 3_600_000)).toBe(60_000);
    expect(msUntilTimeLeftChanges(4 * 3_600_000 - 1500)).toBe(58_500);
    expect(msUntilTimeLeftChanges(30_000)).toBe(30_000);
  });

  it('lands each wait where the text has just changed', () => {
    let msLeft = 2 * 60_000 + 20_000;
    const seen: string[] = [];
    while (msLeft > 0) {
      msLeft -= msUntilTimeLeftChanges(msLeft);
      seen.push(formatTimeLeft(expiresAt, Date.parse(expiresAt) - msLeft, 'en'));
    }
    expect(seen).toEqual(['Expires in 2 minutes', 'Expires in 1 minute', 'Expired']);
  });
});
