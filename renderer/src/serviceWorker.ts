import { platform } from './platform';

/**
 * The service worker (renderer/public/sw.js): notifications pushed while the app is closed, and
 * the offline page. boot.tsx imports this module after the app's first render; it registers once
 * the page has loaded and the browser is idle, never on a visitor's first-load path. Not in the
 * desktop app, which has notifications of its own.
 */
function register(): void {
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(() => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // A browser that refuses (private mode, a policy) keeps working without it.
    });
  });
}

if (platform.kind === 'web' && 'serviceWorker' in navigator && window.isSecureContext) {
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
