import { useCallback, useMemo, useState } from 'react';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { LINK_PAGE_SIZE } from '../../../api/contract/limits';
import { afterUse, leftToGive } from '../../../api/contract/link-use';
import { centsToDollars, dollarsToCents } from '../../../api/contract/money';
import { FEED_ERROR } from '../../../api/contract/texts';
import { linkVisitSource, logEvent } from '../analytics';
import { useFirstPaint } from '../firstPaint';
import { randomUuid } from '../ids';
import { getVisitorSessionId } from '../state/visitorSession';
import { call, idempotent } from './client';
import { unlessReadAhead } from './queryClient';
import { conversationKeys } from './conversations';
import type { ActiveLinksResponse, CreateLinkRequest, LinkView, RespondedResponse } from './types';

export { FEED_ERROR, LINK_PAGE_SIZE };

/** The public feed: open links, newest first. */
export function getFeed(page: number, signal?: AbortSignal) {
  return call('GET /links/all', { query: { page }, signal });
}

/** A user's links, newest first (their own, or anyone's for a subscriber). */
export function getProfileLinks(username: string, page: number, signal?: AbortSignal) {
  return call('GET /links/profile/:username', { params: { username }, query: { page }, signal });
}

export function getActiveLinkCount(username: string, signal?: AbortSignal) {
  return call('GET /links/active-links/:username', { params: { username }, signal });
}

export function createLink(body: CreateLinkRequest, key: string) {
  return call('POST /links/create', { body, ...idempotent(key) });
}

/** Opens a creator's current link: counts the view and records this visitor (and where it came from). */
export function openLink(creatorUsername: string, sessionId: string, signal?: AbortSignal, source?: string) {
  return call('POST /links/:linkCreatorUsername', {
    params: { linkCreatorUsername: creatorUsername },
    body: { sessionId, source },
    signal,
  });
}

export function hasResponded(creatorUsername: string, signal?: AbortSignal) {
  return call('GET /api/user-respond', { query: { creatorUsername }, signal });
}

/** Uses a give link; `note`, if any, is the responder's first message to the creator after the gift. */
export function acceptLink(linkCreatorUsername: string, key: string, note?: string) {
  return call('PUT /api/accept-link', { body: { linkCreatorUsername, ...noteField(note) }, ...idempotent(key) });
}

/** Gives to a receive link; `amount` in dollars (ignored by the server for item links); `note` only when written. */
export function giveToLink(
  postId: string,
  type: LinkView['details']['type'],
  amount: number,
  key: string,
  note?: string,
  authorisation?: string,
) {
  const body = { postId, type, amount, ...noteField(note), ...(authorisation ? { authorisation } : {}) };
  return call('POST /statuses/api/gives', { body, ...idempotent(key) });
}

/** What a give sends: `key` is the attempt's Idempotency-Key (kept for a retry after a network failure). */
export interface GiveInput {
  amount: number;
  key: string;
  note?: string;
  /** The card authorisation that pays what the balance is missing (captured where the gift lands). */
  authorisation?: string;
}

/** A gift's note in a request body, left out when blank (the server reads blank as none). */
const noteField = (note: string | undefined) => (note?.trim() ? { note } : {});

/** Takes back the owner's open give link: it closes and what is left of it comes back to the balance. */
export function cancelLink(linkId: string, key: string) {
  return call('DELETE /api/links/:linkId', { params: { linkId }, ...idempotent(key) });
}

// ---- the query cache ----------------------------------------------------------------------------

const lower = (username: string) => username.toLowerCase();

/** Answers that depend on who asks carry the viewer's id (null for a visitor). */
export const linkKeys = {
  all: ['links'] as const,
  feed: () => [...linkKeys.all, 'feed'] as const,
  profile: (username: string, viewerId: string | null) => [...linkKeys.all, 'profile', lower(username), viewerId] as const,
  activeCount: (username: string) => [...linkKeys.all, 'active', lower(username)] as const,
  opened: (username: string) => [...linkKeys.all, 'open', lower(username)] as const,
  open: (username: string, viewerId: string | null) => [...linkKeys.opened(username), viewerId] as const,
  responded: (username: string, viewerId: string | null) => [...linkKeys.all, 'responded', lower(username), viewerId] as const,
};

export type FeedStatus = 'loading' | 'loading-more' | 'refreshing' | 'idle';

/** The home feed, 25 links a page; the same for everyone (each card says 'You are' on the client). */
export const linkFeedQuery = infiniteQueryOptions({
  queryKey: linkKeys.feed(),
  queryFn: ({ pageParam, signal }) => getFeed(pageParam, signal),
  initialPageParam: 1,
  getNextPageParam: (last: LinkView[], _pages: LinkView[][], page: number) => (last.length >= LINK_PAGE_SIZE ? page + 1 : undefined),
});

/**
 * The home feed: `fetchNextPage` while the last page was full, `refresh` starts again from page 1,
 * `retry` repeats what failed. Its first read waits for the page's first paint (firstPaint.ts): on
 * a visitor's first page the hero paints without the feed's round trip in its way.
 */
export function useLinkFeed() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({ ...linkFeedQuery, enabled: useFirstPaint() });
  const { data, refetch, fetchNextPage, isFetchNextPageError } = query;

  // A link can move between pages while the feed is read: each shows once.
  const links = useMemo(() => {
    const seen = new Set<string>();
    return (data?.pages ?? []).flat().filter((link) => !seen.has(link.id) && (seen.add(link.id), true));
  }, [data]);

  // A refresh the user asked for (the button, a pull) shows itself; a background re-read does not.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = useCallback(async () => {
    setRefreshing(true);
    queryClient.setQueryData<InfiniteData<LinkView[], number>>(linkKeys.feed(), (feed) =>
      feed ? { pages: feed.pages.slice(0, 1), pageParams: feed.pageParams.slice(0, 1) } : feed,
    );
    await refetch().finally(() => setRefreshing(false));
  }, [queryClient, refetch]);

  const retry = useCallback(
    () => void (isFetchNextPageError ? fetchNextPage() : refetch()),
    [isFetchNextPageError, fetchNextPage, refetch],
  );

  const status: FeedStatus = query.isPending ? 'loading' : query.isFetchingNextPage ? 'loading-more' : refreshing ? 'refreshing' : 'idle';

  return { query, links, hasMore: query.hasNextPage, status, error: query.isError ? FEED_ERROR : null, refresh, retry };
}

/** A user's newest link (their own, or anyone's for a subscriber). */
export function useProfileLinkQuery(username: string, viewerId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: linkKeys.profile(username, viewerId),
    queryFn: async ({ signal }) => (await getProfileLinks(username, 1, signal))[0] ?? null,
    enabled,
  });
}

export function useActiveLinkCount(username: string) {
  return useQuery({
    queryKey: linkKeys.activeCount(username),
    queryFn: ({ signal }) => getActiveLinkCount(username, signal),
    enabled: username !== '',
  });
}

/** A creator's current link, as `viewerId` sees it; opening it counts the view. */
export const linkQuery = (creatorUsername: string, viewerId: string | null) =>
  queryOptions({
    queryKey: linkKeys.open(creatorUsername, viewerId),
    queryFn: async ({ signal }) => (await openLink(creatorUsername, getVisitorSessionId(), signal, linkVisitSource())).updatedLink,
  });

/** The link page's read of `linkQuery` (read ahead on a first load: boot.tsx). */
export function useLinkQuery(creatorUsername: string, viewerId: string | null) {
  return useQuery({ ...linkQuery(creatorUsername, viewerId), refetchOnMount: unlessReadAhead });
}

/** Whether the signed-in user has used this creator's link already. */
export function useRespondedQuery(creatorUsername: string, viewerId: string) {
  return useQuery({
    queryKey: linkKeys.responded(creatorUsername, viewerId),
    queryFn: ({ signal }) => hasResponded(creatorUsername, signal),
  });
}

/** After a new link: one active link, and it joins the feed and the profile (a give link's money is pushed: `balance`). */
export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLinkRequest) => createLink(body, randomUuid()),
    onSuccess: (link) => {
      queryClient.setQueryData<ActiveLinksResponse>(linkKeys.activeCount(link.creatorUsername), { totalLinks: 1 });
      void queryClient.invalidateQueries({ queryKey: linkKeys.feed() });
      void queryClient.invalidateQueries({ queryKey: [...linkKeys.all, 'profile'] });
    },
  });
}

/**
 * The link after one use of `amount` (dollars), as the contract's afterUse says (the server's
 * update does the same); unchanged when the link could not take it.
 */
export function linkAfterUse(link: LinkView, amount: number): LinkView {
  const { details, progress } = link;
  const cents = (dollars: number) => dollarsToCents(dollars) ?? 0;
  const counts = {
    type: details.type,
    giveOrReceive: details.giveorreceive,
    status: link.status,
    remainingQuantity: details.remainingQuantity,
    totalCostCents: cents(details.totalCost),
    raisedCents: cents(progress?.raised ?? 0),
    gifts: progress?.gifts ?? 0,
  };
  const next = afterUse(counts, cents(amount));
  if (!next) return link;
  return {
    ...link,
    status: next.status,
    details: { ...details, remainingQuantity: next.remainingQuantity },
    ...(progress
      ? {
          progress: {
            ...progress,
            raised: centsToDollars(next.raisedCents),
            left: centsToDollars(leftToGive({ ...counts, raisedCents: next.raisedCents })),
            gifts: next.gifts,
          },
        }
      : {}),
  };
}

/**
 * After using a link: one use fewer (or a group gift's progress moved), used by this viewer, and
 * the gift opened (or reused) a conversation; the balance that moved is pushed (`balance`).
 */
function linkUsed(queryClient: QueryClient, link: LinkView, viewerId: string, amount: number): void {
  queryClient.setQueriesData<LinkView>({ queryKey: linkKeys.opened(link.creatorUsername) }, (cached) =>
    cached && cached.id === link.id ? linkAfterUse(cached, amount) : cached,
  );
  queryClient.setQueryData<RespondedResponse>(linkKeys.responded(link.creatorUsername, viewerId), { responded: true });
  void queryClient.invalidateQueries({ queryKey: linkKeys.feed() });
  void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
}

/** Accepts a give link: `mutate()`, or `mutate(note)` with the responder's note. */
export function useAcceptLink(link: LinkView, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note?: string) => acceptLink(link.creatorUsername, randomUuid(), note),
    onSuccess: () => {
      linkUsed(queryClient, link, viewerId, link.details.amount);
      logEvent('linkTransaction', { _id: link.id, details: { type: link.details.type, amount: link.details.amount }, action: 'accept' });
    },
  });
}

/** Gives to a receive link: `mutate({ amount, key, note })`, amount in dollars, the note only when written. */
export function useGive(link: LinkView, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, key, note, authorisation }: GiveInput) =>
      giveToLink(link.id, link.details.type, amount, key, note, authorisation),
    onSuccess: (_answer, { amount }) => {
      linkUsed(queryClient, link, viewerId, amount);
      logEvent('linkTransaction', { _id: link.id, details: { type: link.details.type, amount }, action: 'give' });
    },
  });
}

/** Cancels the owner's open give link: the page shows it closed (the refund's balance is pushed). */
export function useCancelLink(link: LinkView) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelLink(link.id, randomUuid()),
    onSuccess: ({ link: closed }) => {
      queryClient.setQueriesData<LinkView>({ queryKey: linkKeys.opened(link.creatorUsername) }, (cached) =>
        cached && cached.id === closed.id ? { ...closed, metrics: cached.metrics } : cached,
      );
      queryClient.setQueryData<ActiveLinksResponse>(linkKeys.activeCount(link.creatorUsername), { totalLinks: 0 });
      void queryClient.invalidateQueries({ queryKey: linkKeys.feed() });
      void queryClient.invalidateQueries({ queryKey: [...linkKeys.all, 'profile'] });
    },
  });
}
