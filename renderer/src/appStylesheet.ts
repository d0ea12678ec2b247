/**
 * On a shared page the server sends only the CSS its markup needs, and its loader adds the whole
 * stylesheet (`link[data-app-stylesheet]`) after the first paint (api/src/http/shared-page.ts). The
 * app renders once that stylesheet is in, so nothing it draws shows unstyled; a stylesheet that fails
 * to load does not hold the app back. Everywhere else the stylesheet is inline: nothing to wait for.
 */
export function appStylesheet(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-stylesheet]');
  if (!link || link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
}
