import { useQuery } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { IMAGE_CACHE_ERROR } from '../../../../api/contract/texts';
import { apiFetch } from '../../api/client';
import { platform } from '../../platform';
import { setDatabaseErrorAtom } from '../../state/session';

export interface ShareImage {
  url: string;
  blob: Blob;
  /** For the preview's <img>; one per fetched image, kept while the query is. */
  objectUrl: string;
}

async function fetchShareImage(url: string, signal: AbortSignal): Promise<ShareImage> {
  const res = await apiFetch(url, { signal, headers: { Accept: 'image/png' } });
  if (!res.ok) throw new Error(`share image ${res.status}`);
  const blob = await res.blob();
  if (!blob.type.startsWith('image/')) throw new Error('share image is not an image');
  return { url, blob, objectUrl: URL.createObjectURL(blob) };
}

/**
 * The server's share image at `url` (GET /links|wishlists/{username}/image?template&format), as
 * bytes and an object URL. Each template and format is fetched once per modal session and kept;
 * the server's ETag lets the browser revalidate it cheaply afterwards.
 */
export function useShareImage(url: string) {
  return useQuery({
    queryKey: ['shareImage', url],
    queryFn: ({ signal }) => fetchShareImage(url, signal),
    staleTime: 60_000,
    gcTime: 5 * 60_000,
    retry: 1,
    refetchOnWindowFocus: false,
  });
}

/**
 * Keeps the chosen image in the local image cache ('shareImages', under the username). A storage
 * failure becomes the session's database error, shown once.
 */
export function useCacheShareImage() {
  const setDatabaseError = useSetAtom(setDatabaseErrorAtom);
  return useCallback(
    async (username: string, image: ShareImage) => {
      try {
        await platform.imageCache.put('shareImages', username, [{ url: image.url, blob: image.blob }]);
      } catch {
        setDatabaseError(IMAGE_CACHE_ERROR);
      }
    },
    [setDatabaseError],
  );
}
