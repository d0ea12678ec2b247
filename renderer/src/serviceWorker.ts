import { platform } from './platform';

/**
 * The service worker (renderer/public/sw.js): notifications pushed while the app is closed, and
 * the offline page. Registered once the page has loaded and the browser is idle, never on a
 * visitor's first-load path; not in the desktop app, which has notifications of its own.
 */
export function registerServiceWorkerLater(): void {
  if (platform.kind !== 'web' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => {
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
        // A browser that refuses (private mode, a policy) keeps working without it.
      });
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
