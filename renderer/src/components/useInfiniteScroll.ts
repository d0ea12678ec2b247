import { useEffect, useState, type RefObject } from 'react';

/** What an infinite query (`useInfiniteQuery`) tells about its next page. */
export interface Pager {
  hasNextPage: boolean;
  /** Any fetch of the list under way (the first page, a refresh, the next page). */
  isFetching: boolean;
  /** The last next-page fetch failed: it waits for its Try again. */
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

interface Options {
  /** The scrolling element; the viewport when absent. */
  root?: RefObject<Element | null>;
  /** How far outside the scroll area the sentinel already counts as reached (CSS margin syntax). */
  rootMargin?: string;
  enabled?: boolean;
}

/**
 * Infinite scroll with an IntersectionObserver: returns the ref of a sentinel element placed
 * where more should load (the end of the feed, the top of a thread). The sentinel is watched
 * only while a next page may be fetched; each watch starts with a fresh report of where the
 * sentinel is, so after every page (or a screen the page did not fill) the next one follows
 * while the sentinel is still within `rootMargin` of the scroll area.
 */
export function useInfiniteScroll(pager: Pager, { root, rootMargin = '0px', enabled = true }: Options = {}) {
  const [sentinel, setSentinel] = useState<Element | null>(null);
  const { hasNextPage, isFetching, isFetchNextPageError, fetchNextPage } = pager;
  const ready = enabled && hasNextPage && !isFetching && !isFetchNextPageError;

  useEffect(() => {
    if (!sentinel || !ready || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          void fetchNextPage();
        }
      },
      { root: root?.current ?? null, rootMargin },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel, ready, root, rootMargin, fetchNextPage]);

  return setSentinel;
}
