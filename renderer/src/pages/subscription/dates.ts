import { formatDate } from '../../format';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** 'Monday, November 30, 2026' (the reader's own language and calendar). */
export function formatDay(date: Date | string): string {
  return formatDate(date, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

/** A week after a payment made now: when the next one is charged. */
export function nextChargeDate(now: Date): Date {
  return new Date(now.getTime() + WEEK_MS);
}
