import { useEffect, useState } from 'react';
import { msUntilTimeLeftChanges } from '../../../api/contract/time';
/** The current time, re-read every `intervalMs`, so relative times and countdowns stay true. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The current time, re-read at each whole minute left until `until` (when its 'Expires in …' text
 * changes) and no more once it has passed: one timer at a time, cleared on unmount.
 */
export function useCountdownNow(until: string): number {
  const [now, setNow] = useState(() => Date.now());
  const end = Date.parse(until);
  useEffect(() => {
    const msLeft = end - now;
    if (!Number.isFinite(msLeft) || msLeft <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), msUntilTimeLeftChanges(msLeft));
    return () => window.clearTimeout(timer);
  }, [end, now]);
  return now;
}
