import { platform } from './platform';

/**
 * The service worker (renderer/public/sw.js): notifications pushed while the app is closed, and
 * the offline page. boot.tsx loads this module once the page has loaded; it registers when the
 * browser is next idle, never on a visitor's first-load path. Not in the desktop app, which has
 * notifications of its own.
 */
export function registerServiceWorkerLater(): void {
  if (platform.kind !== 'web' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(() => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // A browser that refuses (private mode, a policy) keeps working without it.
    });
  });
}
