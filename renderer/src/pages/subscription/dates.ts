const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** 'Monday, November 30, 2026' (the reader's own language and calendar). */
export function formatDay(date: Date | string): string {
  return dayFormat.format(typeof date === 'string' ? new Date(date) : date);
}

/** A week after a payment made now: when the next one is charged. */
export function nextChargeDate(now: Date): Date {
  return new Date(now.getTime() + WEEK_MS);
}
