/**
 * How long ago something happened, in the words the app and the server's markup of a shared page
 * both use (renderer/src/format.ts, api/src/sharing/pages.tsx): one rule, so the markup reads
 * exactly as the app that replaces it. Plain values, safe in any bundle.
 */
import { grouped } from './money.js';

/** Under this many seconds a time reads 'just now'. */
export const JUST_NOW_SECONDS = 10;

/** The units a time is counted in (each one of Intl.RelativeTimeFormat's). */
export type TimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** Up to each limit (seconds), the unit a time is counted in, and that unit's length in seconds. */
const UNITS: [limitSeconds: number, unit: TimeUnit, seconds: number][] = [
  [60, 'second', 1],
  [3600, 'minute', 60],
  [86_400, 'hour', 3600],
  [604_800, 'day', 86_400],
  [2_629_800, 'week', 604_800],
  [31_557_600, 'month', 2_629_800],
  [Number.POSITIVE_INFINITY, 'year', 31_557_600],
];

/**
 * `elapsedSeconds` ago as a whole count of the largest unit that fits (for Intl.RelativeTimeFormat,
 * counted back: negative), or null when it is just now.
 */
export function relativeTimeParts(elapsedSeconds: number): { value: number; unit: TimeUnit } | null {
  const elapsed = Math.max(0, elapsedSeconds);
  if (elapsed < JUST_NOW_SECONDS) return null;
  const [, unit, size] = UNITS.find(([limit]) => elapsed < limit) ?? UNITS[UNITS.length - 1];
  return { value: -Math.floor(elapsed / size), unit };
}

/** The languages the app speaks (renderer/src/format.ts `appLocale`). */
export type TimeLocale = 'en' | 'zh';

const JUST_NOW: Record<TimeLocale, string> = { en: 'just now', zh: '刚刚' };

/** Each unit's words: English singular and plural, Chinese (no plural). */
const UNIT_WORDS: Record<TimeUnit, [en: string, enPlural: string, zh: string]> = {
  second: ['second', 'seconds', '秒钟'],
  minute: ['minute', 'minutes', '分钟'],
  hour: ['hour', 'hours', '小时'],
  day: ['day', 'days', '天'],
  week: ['week', 'weeks', '周'],
  month: ['month', 'months', '个月'],
  year: ['year', 'years', '年'],
};

/**
 * `elapsedSeconds` ago in words: 'just now', '2 hours ago', '2小时前'. Exactly what
 * `Intl.RelativeTimeFormat(locale, { numeric: 'always' })` writes for the parts (time.test.ts
 * holds them equal), without it: the first Intl formatter a page makes loads the browser's locale
 * data, 40–75 ms of one task on a desktop and four times that on a phone, in the render that
 * takes a shared page over (Total Blocking Time).
 */
export function relativeTimeText(elapsedSeconds: number, locale: TimeLocale): string {
  const parts = relativeTimeParts(elapsedSeconds);
  if (!parts) return JUST_NOW[locale];
  const count = -parts.value;
  const [one, many, zh] = UNIT_WORDS[parts.unit];
  const number = grouped(String(count));
  return locale === 'zh' ? `${number}${zh}前` : `${number} ${count === 1 ? one : many} ago`;
}

const EXPIRED: Record<TimeLocale, string> = { en: 'Expired', zh: '已过期' };

/** `count` of `unit` in the words `relativeTimeText` uses: '3 hours', '1 minute', '3小时'. */
function countWords(count: number, unit: 'hour' | 'minute', locale: TimeLocale): string {
  const [one, many, zh] = UNIT_WORDS[unit];
  return locale === 'zh' ? `${count}${zh}` : `${count} ${count === 1 ? one : many}`;
}

/**
 * `secondsLeft` until a link expires, to the minute and counted up (never 'in 0 minutes'): 'Expires
 * in 3 hours 12 minutes', 'Expires in 4 hours', 'Expires in 1 minute', '3小时12分钟后过期'; 'Expired' at 0.
 */
export function timeLeftText(secondsLeft: number, locale: TimeLocale): string {
  if (!(secondsLeft > 0)) return EXPIRED[locale];
  const totalMinutes = Math.ceil(secondsLeft / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const parts = [hours > 0 ? countWords(hours, 'hour', locale) : '', minutes > 0 ? countWords(minutes, 'minute', locale) : ''];
  return locale === 'zh' ? `${parts.join('')}后过期` : `Expires in ${parts.filter(Boolean).join(' ')}`;
}

/** Milliseconds from `msLeft` to the next change of `timeLeftText`: its minutes are counted up, so at each whole minute left. */
export function msUntilTimeLeftChanges(msLeft: number): number {
  return msLeft % 60_000 || 60_000;
}
