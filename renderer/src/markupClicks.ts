/**
 * A shared page shows the server's markup (api/src/sharing/pages.tsx) until the app takes over.
 * A click on one of its links meanwhile waits for the app: the server's loader holds it and writes
 * its path on `#root` as `data-held-click` (api/src/http/shared-page.ts), and the app follows it as
 * its own link would (telling the next page where the visitor came from, so registering through a
 * link's Register button joins through its creator and comes back). Should the app never come (a
 * script failed to load), the loader follows the link as a plain one after a moment.
 */

/**
 * Called once the app has rendered: marks `#root` as the app's (the loader holds no more clicks)
 * and answers the in-app path clicked meanwhile, if any (once; the loader's fallback then stands down).
 */
export function takeHeldClick(): string | null {
  const root = document.getElementById('root');
  if (!root) return null;
  root.setAttribute('data-taken-over', '');
  const href = root.getAttribute('data-held-click');
  root.removeAttribute('data-held-click');
  return href;
}
