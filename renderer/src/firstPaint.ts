import { useSyncExternalStore } from 'react';

/**
 * Whether the page has shown its first content yet. A read the first screen does not need to paint
 * (the home feed's cards) starts after it, so on a slow phone it does not share the first round
 * trips with the page's own script. Told by the browser's paint timing
 * (`first-contentful-paint`); at once in a hidden tab (which paints nothing) or a browser without
 * paint timing, and at most PAINT_WAIT_MS after the app starts.
 */

/** The longest anything waits for the first paint to be reported. */
const PAINT_WAIT_MS = 1000;

let painted = false;
let watching = false;
const listeners = new Set<() => void>();

function markPainted(): void {
  if (painted) return;
  painted = true;
  for (const listener of [...listeners]) listener();
}

function watch(): void {
  if (watching || painted) return;
  watching = true;
  const Observer = typeof PerformanceObserver === 'function' ? PerformanceObserver : undefined;
  if (typeof document === 'undefined' || document.visibilityState === 'hidden' || !Observer?.supportedEntryTypes?.includes('paint')) {
    return markPainted();
  }
  const observer = new Observer((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    markPainted();
  });
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(() => {
    observer.disconnect();
    markPainted();
  }, PAINT_WAIT_MS);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  watch();
  return () => void listeners.delete(listener);
};

/** True once the page has painted its first content; re-renders the component when it has. */
export const useFirstPaint = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => painted,
    () => false,
  );
