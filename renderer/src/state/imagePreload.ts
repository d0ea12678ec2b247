import { IMAGE_CACHE_ERROR } from '../../../api/contract/texts';
import { apiFetch, isApiUrl } from '../api/client';
import { platform, type ImageStoreName, type StoredImage } from '../platform';

/** PRODUCT.md §8: what the user is told when the local image database fails. */
export { IMAGE_CACHE_ERROR };

export interface CachedImage {
  url: string;
  objectUrl: string;
}

type AddImage = (image: CachedImage) => void;

/** Raised when the platform's image cache (not the network) fails. */
export class ImageStorageError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'image storage failed');
    this.name = 'ImageStorageError';
  }
}

function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Only our own images are downloaded (the app's files and the API's pictures): the page's
 * Content-Security-Policy lets scripts fetch from there alone, so marketplace images on another
 * host are left to the browser's HTTP cache.
 */
function cacheable(urls: readonly string[]): string[] {
  return [...new Set(urls.filter((url) => url && (isSameOrigin(url) || isApiUrl(url))))];
}

async function download(url: string): Promise<Blob> {
  const res = isApiUrl(url) ? await apiFetch(url) : await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`image ${res.status}`);
  return res.blob();
}

/**
 * Bumped by `clearImageCache`: a save that started before a logout must not write the previous
 * user's images back after the cache was cleared.
 */
let generation = 0;

/**
 * Saves `username`'s images in `store` of the local image cache (reusing the bytes already saved,
 * downloading the rest) and hands every image to the session's in-memory cache as an object URL.
 * The saved list becomes exactly `urls` (minus images that could not be downloaded).
 *
 * Download failures are skipped (the page then loads the image normally). Rejects with
 * ImageStorageError when the local cache itself fails; the images are still added in memory.
 */
export async function cacheUserImages(store: ImageStoreName, username: string, urls: readonly string[], add: AddImage) {
  const started = generation;
  let storageError: ImageStorageError | null = null;
  let saved: StoredImage[] = [];
  try {
    saved = await platform.imageCache.get(store, username);
  } catch (err) {
    storageError = new ImageStorageError(err);
  }
  const savedByUrl = new Map(saved.map((image) => [image.url, image.blob]));

  const results = await Promise.allSettled(
    cacheable(urls).map(async (url): Promise<StoredImage> => ({ url, blob: savedByUrl.get(url) ?? (await download(url)) })),
  );
  if (started !== generation) return; // logged out meanwhile
  const images = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  for (const { url, blob } of images) add({ url, objectUrl: URL.createObjectURL(blob) });

  if (!storageError) {
    try {
      await platform.imageCache.put(store, username, images);
    } catch (err) {
      storageError = new ImageStorageError(err);
    }
  }
  if (storageError) throw storageError;
}

/** After a page reload: the saved images of `username` back into the in-memory cache, no network. */
export async function restoreUserImages(store: ImageStoreName, username: string, add: AddImage) {
  const started = generation;
  let saved: StoredImage[];
  try {
    saved = await platform.imageCache.get(store, username);
  } catch (err) {
    throw new ImageStorageError(err);
  }
  if (started !== generation) return;
  for (const { url, blob } of saved) add({ url, objectUrl: URL.createObjectURL(blob) });
}

/** Best effort, memory only: fetch images (onboarding art) and hand back object URLs. */
export async function preloadImages(urls: readonly string[], add: AddImage) {
  const started = generation;
  await Promise.allSettled(
    cacheable(urls).map(async (url) => {
      const blob = await download(url);
      if (started === generation) add({ url, objectUrl: URL.createObjectURL(blob) });
    }),
  );
}

/** Logout: forget every saved image (IndexedDB on the web) and stop saves still under way. */
export async function clearImageCache(): Promise<void> {
  generation += 1;
  await platform.imageCache.clear();
}
