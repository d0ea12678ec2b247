/**
 * The entry: as small as it can be, so that a shared page's server markup (api/src/sharing/preview.ts)
 * paints before any of the app's code runs (issue 15: that markup is the page's largest paint on a
 * slow phone). With such markup in #root the app (boot.tsx) loads once that markup has painted; on
 * every other page at once. Its files are preloaded from index.html either way (renderer/vite.config.ts).
 */
import { holdMarkupClicks } from './markupClicks';

const root = document.getElementById('root');
const serverMarkup = root?.firstElementChild != null;
// A link of the markup clicked before the app is here is followed by the app (markupClicks.ts).
if (root && serverMarkup) holdMarkupClicks(root);

/** After the next frame has painted (a hidden tab paints nothing: no wait there). */
function afterPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

void (serverMarkup ? afterPaint() : Promise.resolve()).then(() => import('./boot'));
