/**
 * The entry. On a shared page (and a visitor's home page) the server's markup
 * (api/src/sharing/pages.tsx) is already on screen: the server's loader started this entry and
 * the whole stylesheet after that markup's first paint,
 * and holds the markup's links clicked until the app is in (api/src/http/shared-page.ts,
 * markupClicks.ts). The app (boot.tsx) takes the markup over once the stylesheet, the page's chunk
 * and its data are here. On every other page index.html loads this entry at once, its files preloaded.
 *
 * The app is a static import and its modules share one chunk ('app', renderer/vite.config.ts): a
 * dynamic import here split them into a dozen small chunks, a request each.
 */
import './boot';
