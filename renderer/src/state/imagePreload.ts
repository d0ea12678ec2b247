import { platform } from '../platform';

export interface CachedImage {
  url: string;
  objectUrl: string;
}

function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Best effort: fetch images (from the platform cache when there) and hand back object URLs for
 * the session's image cache slot. Failures are skipped; the page then loads the image normally.
 */
export async function preloadImages(urls: readonly string[], add: (image: CachedImage) => void) {
  const unique = [...new Set(urls)].filter(isSameOrigin);
  await Promise.allSettled(
    unique.map(async (url) => {
      let blob = await platform.imageCache.get(url);
      if (!blob) {
        const res = await fetch(url, { credentials: 'same-origin' });
        if (!res.ok) throw new Error(`image ${res.status}`);
        blob = await res.blob();
        await platform.imageCache.put(url, blob);
      }
      add({ url, objectUrl: URL.createObjectURL(blob) });
    }),
  );
}
