import { describe, expect, it } from 'vitest';
import { relativeTimeParts, relativeTimeText, type TimeLocale, type TimeUnit } from './time.js';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

describe('relative time: one rule for the app and the server markup', () => {
  it('counts back in the largest unit that fits, just now under ten seconds', () => {
    expect(relativeTimeParts(0)).toBeNull();
    expect(relativeTimeParts(9.9)).toBeNull();
    expect(relativeTimeParts(-5)).toBeNull();
    expect(relativeTimeParts(10)).toEqual({ value: -10, unit: 'second' });
    expect(relativeTimeParts(59)).toEqual({ value: -59, unit: 'second' });
    expect(relativeTimeParts(MINUTE)).toEqual({ value: -1, unit: 'minute' });
    expect(relativeTimeParts(2 * HOUR + 59 * MINUTE)).toEqual({ value: -2, unit: 'hour' });
    expect(relativeTimeParts(6 * DAY)).toEqual({ value: -6, unit: 'day' });
    expect(relativeTimeParts(7 * DAY)).toEqual({ value: -1, unit: 'week' });
    expect(relativeTimeParts(40 * DAY)).toEqual({ value: -1, unit: 'month' });
    expect(relativeTimeParts(800 * DAY)).toEqual({ value: -2, unit: 'year' });
  });
});

describe('relative time in words: what Intl.RelativeTimeFormat writes, without loading it in the browser', () => {
  const SIZES: Record<TimeUnit, number> = {
    second: 1,
    minute: MINUTE,
    hour: HOUR,
    day: DAY,
    week: 604_800,
    month: 2_629_800,
    year: 31_557_600,
  };

  it.each<TimeLocale>(['en', 'zh'])('reads as Intl does in %s, for every unit and count', (locale) => {
    const intl = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
    let compared = 0;
    for (const [unit, size] of Object.entries(SIZES) as [TimeUnit, number][])
      for (const count of [1, 2, 3, 5, 10, 11, 21, 59]) {
        const elapsed = count * size + 0.5;
        const parts = relativeTimeParts(elapsed);
        if (!parts || parts.unit !== unit || -parts.value !== count) continue; // a count the next unit takes over
        expect(relativeTimeText(elapsed, locale), `${count} ${unit}`).toBe(intl.format(parts.value, parts.unit));
        compared++;
      }
    for (const years of [100, 1234, 1_000_000]) expect(relativeTimeText(years * SIZES.year + 1, locale)).toBe(intl.format(-years, 'year'));
    expect(compared).toBeGreaterThan(30);
  });

  it('says just now under ten seconds', () => {
    expect(relativeTimeText(9, 'en')).toBe('just now');
    expect(relativeTimeText(9, 'zh')).toBe('刚刚');
    expect(relativeTimeText(2 * HOUR + 5, 'en')).toBe('2 hours ago');
    expect(relativeTimeText(MINUTE, 'en')).toBe('1 minute ago');
    expect(relativeTimeText(3 * DAY, 'zh')).toBe('3天前');
  });
});
