/**
 * The entry: as small as it can be, so that a shared page's server markup (api/src/sharing/preview.ts)
 * paints before any of the app's code runs (issue 15: that markup is the page's largest paint on a
 * slow phone). With such markup in #root the app (boot.tsx) loads once the browser reports that
 * markup's first paint, and the server leaves out the preloads of its files, so nothing competes with
 * that paint (api/src/http/web.ts); on every other page it loads at once, preloaded (renderer/vite.config.ts).
 */
import { holdMarkupClicks } from './markupClicks';

const root = document.getElementById('root');
const serverMarkup = root?.firstElementChild != null;
// A link of the markup clicked before the app is here is followed by the app (markupClicks.ts).
if (root && serverMarkup) holdMarkupClicks(root);

/** The longest the app waits for the markup's first paint to be reported. */
const PAINT_WAIT_MS = 1500;

/**
 * Once the browser reports the page's first contentful paint (the markup, on screen), so the app's
 * files load after it and never compete with it; a hidden tab paints nothing (no wait there), and a
 * browser without paint timing waits a frame.
 */
function afterPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    const timer = setTimeout(done, PAINT_WAIT_MS);
    observer.observe({ type: 'paint', buffered: true });
  });
}

void (serverMarkup ? afterPaint() : Promise.resolve()).then(() => import('./boot'));
