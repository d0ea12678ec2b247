import { describe, expect, it } from 'vitest';
import { relativeTimeParts } from './time.js';

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
