import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, idempotent } from './client';
import type {
  AcceptLinkResponse,
  ActiveLinksResponse,
  CreateLinkRequest,
  GiveResponse,
  LinkView,
  OpenLinkResponse,
  RespondedResponse,
} from './types';

const enc = encodeURIComponent;

/** Links come 25 to a page; a full page means there may be more. */
export const LINK_PAGE_SIZE = 25;

/** The public feed: open links, newest first. */
export function getFeed(page: number, signal?: AbortSignal) {
  return api.get<LinkView[]>(`/links/all?page=${page}`, { signal });
}

/** A user's links, newest first (their own, or anyone's for a subscriber). */
export function getProfileLinks(username: string, page: number, signal?: AbortSignal) {
  return api.get<LinkView[]>(`/links/profile/${enc(username)}?page=${page}`, { signal });
}

export function getActiveLinkCount(username: string, signal?: AbortSignal) {
  return api.get<ActiveLinksResponse>(`/links/active-links/${enc(username)}`, { signal });
}

export function createLink(body: CreateLinkRequest, key: string) {
  return api.post<LinkView>('/links/create', body, idempotent(key));
}

/** Opens a creator's current link: counts the view and records this visitor. */
export function openLink(creatorUsername: string, sessionId: string, signal?: AbortSignal) {
  return api.post<OpenLinkResponse>(`/links/${enc(creatorUsername)}`, { sessionId }, { signal });
}

export function hasResponded(creatorUsername: string, signal?: AbortSignal) {
  return api.get<RespondedResponse>(`/api/user-respond?creatorUsername=${enc(creatorUsername)}`, { signal });
}

/** Uses a give link. */
export function acceptLink(linkCreatorUsername: string, key: string) {
  return api.put<AcceptLinkResponse>('/api/accept-link', { linkCreatorUsername }, idempotent(key));
}

/** Gives to a receive link; `amount` in dollars (ignored by the server for item links). */
export function giveToLink(postId: string, type: LinkView['details']['type'], amount: number, key: string) {
  return api.post<GiveResponse>('/statuses/api/gives', { postId, type, amount }, idempotent(key));
}

// ---- hooks ------------------------------------------------------------------------------------

/** SPEC section 8. */
export const FEED_ERROR = 'An error occured when fetching links. Please try again later.';

export interface FeedState {
  links: LinkView[];
  /** The page `loadMore` asks for next. */
  nextPage: number;
  /** A full page came back last time, so there may be more. */
  hasMore: boolean;
  status: 'loading' | 'loading-more' | 'refreshing' | 'idle';
  error: string | null;
}

const initialFeed: FeedState = { links: [], nextPage: 1, hasMore: true, status: 'loading', error: null };

/**
 * The home feed, 25 links a page: `loadMore` fetches the next page while the last one was full,
 * `refresh` starts again from page 1. Answers that arrive after a refresh (or unmount) are dropped.
 */
export function useLinkFeed() {
  const [state, setState] = useState<FeedState>(initialFeed);
  const generation = useRef(0);
  const busy = useRef(false);
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });

  /** Fetches a page and folds it in; every state change happens when the answer arrives. */
  const run = useCallback((page: number, replace: boolean): Promise<void> => {
    const gen = replace ? ++generation.current : generation.current;
    busy.current = true;
    const done = () => {
      if (gen === generation.current) busy.current = false;
    };
    return getFeed(page).then(
      (links) => {
        done();
        if (gen !== generation.current) return;
        setState((s) => {
          const base = replace ? [] : s.links;
          const seen = new Set(base.map((l) => l.id));
          return {
            links: [...base, ...links.filter((l) => !seen.has(l.id))],
            nextPage: page + 1,
            hasMore: links.length >= LINK_PAGE_SIZE,
            status: 'idle',
            error: null,
          };
        });
      },
      () => {
        done();
        if (gen !== generation.current) return;
        setState((s) => ({ ...s, status: 'idle', error: FEED_ERROR }));
      },
    );
  }, []);

  const fetchPage = useCallback(
    (page: number, replace: boolean) => {
      setState((s) => ({
        ...s,
        status: replace ? (s.links.length ? 'refreshing' : 'loading') : 'loading-more',
        error: null,
      }));
      return run(page, replace);
    },
    [run],
  );

  const refresh = useCallback(() => fetchPage(1, true), [fetchPage]);

  const loadMore = useCallback(() => {
    const s = latest.current;
    if (busy.current || !s.hasMore || s.error) return;
    void fetchPage(s.nextPage, false);
  }, [fetchPage]);

  /** After an error: try the failed fetch again. */
  const retry = useCallback(() => {
    const s = latest.current;
    if (busy.current) return;
    void fetchPage(s.links.length ? s.nextPage : 1, s.links.length === 0);
  }, [fetchPage]);

  // The first page (the initial state already says 'loading').
  useEffect(() => {
    void run(1, true);
    return () => {
      generation.current += 1;
      busy.current = false;
    };
  }, [run]);

  return { ...state, loadMore, refresh, retry };
}
