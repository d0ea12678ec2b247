import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { msUntilTimeLeftChanges } from '../../api/contract/time';
import { appLocale, formatAmount, formatRelativeTime, formatTimeLeft, isGiveAmount, isValidAmount, parseDollars } from './format';

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

describe('parseDollars', () => {
  it('reads what a person types as dollars, to the cent', () => {
    expect(parseDollars('12.5')).toBe(12.5);
    expect(parseDollars(' 7 ')).toBe(7);
    expect(parseDollars('0.30')).toBe(0.3);
    expect(parseDollars('007.05')).toBe(7.05);
  });

  it('refuses anything else: a third decimal, a sign, a symbol, a comma, nothing', () => {
    for (const text of ['', ' ', '1.234', '-5', '+5', '$5', '5,00', '1e3', '.5', '5.', 'five']) expect(parseDollars(text), text).toBeNull();
  });
});

describe('isValidAmount', () => {
  it('takes $1 up to under $1,000,000', () => {
    expect(isValidAmount(1)).toBe(true);
    expect(isValidAmount(999_999.99)).toBe(true);
    expect(isValidAmount(0.99)).toBe(false);
    expect(isValidAmount(1_000_000)).toBe(false);
  });

  it('refuses nothing typed, and fractions of a cent', () => {
    expect(isValidAmount(null)).toBe(false);
    expect(isValidAmount(5.005)).toBe(false);
  });
});

describe('isGiveAmount', () => {
  it('takes any valid amount, with or without a group gift', () => {
    expect(isGiveAmount(5, null)).toBe(true);
    expect(isGiveAmount(5, 20)).toBe(true);
  });

  it('takes under $1 only as exactly what a group gift has left', () => {
    expect(isGiveAmount(0.5, 0.5)).toBe(true);
    expect(isGiveAmount(0.1 + 0.2, 0.3)).toBe(true);
    expect(isGiveAmount(0.5, 0.6)).toBe(false);
    expect(isGiveAmount(0.5, null)).toBe(false);
    expect(isGiveAmount(null, 0.5)).toBe(false);
  });
});

describe('formatAmount', () => {
  it('drops the cents of whole dollars only, as the quick amounts read', () => {
    expect(formatAmount(5)).toBe('$5');
    expect(formatAmount(1000)).toBe('$1,000');
    expect(formatAmount(2.5)).toBe('$2.50');
  });
});

describe('appLocale', () => {
  it('is Chinese for any Chinese browser, English otherwise', () => {
    expect(appLocale('zh-CN')).toBe('zh');
    expect(appLocale('ZH-tw')).toBe('zh');
    expect(appLocale('en-GB')).toBe('en');
    expect(appLocale('fr')).toBe('en');
    expect(appLocale('')).toBe('en');
  });
});

describe('formatRelativeTime', () => {
  const now = Date.parse('2026-12-02T10:00:00.000Z');

  it('counts back from now in the largest unit that fits', () => {
    expect(formatRelativeTime('2026-12-02T09:59:55.000Z', now, 'en')).toBe('just now');
    expect(formatRelativeTime('2026-12-02T08:00:00.000Z', now, 'en')).toBe('2 hours ago');
    expect(formatRelativeTime(new Date(now - 3 * 86_400_000), now, 'zh')).toBe('3天前');
  });

  it('says nothing of an unreadable time', () => {
    expect(formatRelativeTime('not a time', now, 'en')).toBe('');
  });
});
