/**
 * The entry: as small as it can be. On a shared page the server's markup (api/src/sharing/preview.ts)
 * is already on screen: the server's loader started this entry and the whole stylesheet after that
 * markup's first paint (api/src/http/shared-page.ts), and the app (boot.tsx) takes the markup over
 * once the stylesheet, the page's chunk and its data are here. On every other page the app loads at
 * once, its files preloaded by index.html (renderer/vite.config.ts).
 */
import { holdMarkupClicks } from './markupClicks';

const root = document.getElementById('root');
// A link of the markup clicked before the app is here is followed by the app (markupClicks.ts).
if (root?.firstElementChild) holdMarkupClicks(root);

void import('./boot');
