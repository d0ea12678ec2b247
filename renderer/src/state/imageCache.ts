import { useCallback } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { ONBOARDING_IMAGES } from '../onboardingImages';
import { IMAGE_CACHE_ERROR, ImageStorageError, cacheUserImages, preloadImages, restoreUserImages } from './imagePreload';
import { addImageAtom, databaseErrorAtom, imageCacheAtom, setDatabaseErrorAtom } from './session';

/**
 * Saves a user's wishlist images in the local cache ('wishlistImages', under their username) and
 * in the session's in-memory view. A storage failure becomes the session's database error, shown
 * once ('Could not save images locally…').
 */
export function useCacheWishlistImages() {
  const addImage = useSetAtom(addImageAtom);
  const setDatabaseError = useSetAtom(setDatabaseErrorAtom);
  return useCallback(
    (username: string, urls: readonly string[]) =>
      cacheUserImages('wishlistImages', username, urls, addImage).catch((err: unknown) => {
        if (err instanceof ImageStorageError) setDatabaseError(IMAGE_CACHE_ERROR);
      }),
    [addImage, setDatabaseError],
  );
}

/** After login (PRODUCT.md §4): the user's wishlist images and the onboarding art. */
export function usePreloadSessionImages() {
  const addImage = useSetAtom(addImageAtom);
  const cacheWishlistImages = useCacheWishlistImages();
  return useCallback(
    (username: string, wishlistImageUrls: readonly string[]) => {
      void cacheWishlistImages(username, wishlistImageUrls);
      void preloadImages(ONBOARDING_IMAGES, addImage);
    },
    [addImage, cacheWishlistImages],
  );
}

/**
 * On app start with a live session: what the local cache already holds goes back into memory,
 * without the network. A failure here is kept as the database error without a popup: nothing was
 * being saved, and the next save tells the user.
 */
export function useRestoreSessionImages() {
  const addImage = useSetAtom(addImageAtom);
  const setError = useSetAtom(databaseErrorAtom);
  return useCallback(
    (username: string) => {
      void restoreUserImages('wishlistImages', username, addImage).catch(() => setError(IMAGE_CACHE_ERROR));
      void preloadImages(ONBOARDING_IMAGES, addImage);
    },
    [addImage, setError],
  );
}

/** The address to show for an image: the cached copy when there is one, else `url` itself. */
export function useCachedImageUrl(url: string | null | undefined): string | undefined {
  const cache = useAtomValue(imageCacheAtom);
  if (!url) return undefined;
  return cache.get(url) ?? url;
}
