/**
 * A shared page shows the server's markup (api/src/sharing/preview.ts) until the app takes over.
 * A click on one of its links meanwhile waits for the app, which then follows it as its own link
 * would (telling the next page where the visitor came from, so registering through a link's
 * Register button joins through its creator and comes back). Should the app never come (a script
 * failed to load), the link works as a plain one after a moment.
 */

/** How long a held click waits for the app before it is followed as a plain link. */
const HOLD_MS = 10_000;

let held: string | null = null;
let fallback: number | undefined;
let appReady = false;

function onClick(event: MouseEvent): void {
  if (appReady || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = (event.target instanceof Element ? event.target.closest('a') : null)?.getAttribute('href');
  if (!href?.startsWith('/') || href.startsWith('//')) return;
  event.preventDefault();
  held = href;
  window.clearTimeout(fallback);
  fallback = window.setTimeout(() => window.location.assign(href), HOLD_MS);
}

/** Holds clicks on the links of the server's markup in `root` until `takeHeldClick`. */
export function holdMarkupClicks(root: HTMLElement): void {
  root.addEventListener('click', onClick);
}

/** Called once the app has rendered: the in-app path clicked meanwhile, if any (once). */
export function takeHeldClick(): string | null {
  appReady = true;
  window.clearTimeout(fallback);
  const href = held;
  held = null;
  return href;
}
