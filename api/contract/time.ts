/**
 * How long ago something happened, in the words the app and the server's markup of a shared page
 * both use (renderer/src/format.ts, api/src/sharing/preview.ts): one rule, so the markup reads
 * exactly as the app that replaces it. Plain values: no imports, safe in any bundle.
 */

/** Under this many seconds a time reads 'just now'. */
export const JUST_NOW_SECONDS = 10;

/** Up to each limit (seconds), the unit a time is counted in, and that unit's length in seconds. */
const UNITS: [limitSeconds: number, unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
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
export function relativeTimeParts(elapsedSeconds: number): { value: number; unit: Intl.RelativeTimeFormatUnit } | null {
  const elapsed = Math.max(0, elapsedSeconds);
  if (elapsed < JUST_NOW_SECONDS) return null;
  const [, unit, size] = UNITS.find(([limit]) => elapsed < limit) ?? UNITS[UNITS.length - 1];
  return { value: -Math.floor(elapsed / size), unit };
}
