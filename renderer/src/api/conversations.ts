import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { INBOX_CURSOR_HEADER, MESSAGE_PAGE_SIZE } from '../../../api/contract/limits';
import { mergeMessages } from '../messageText';
import { call, idempotent } from './client';
import type { ConversationView, MessageView, MessagesPage, ReturnGiftResponse } from './types';

export { MESSAGE_PAGE_SIZE };
export { CONVERSATIONS_ERROR, FIND_CONVERSATION_ERROR, MESSAGES_ERROR, SEND_ERROR } from '../../../api/contract/texts';

/** A page of the inbox and the cursor of the page after it (null: the last page). */
export interface InboxPage {
  conversations: ConversationView[];
  nextCursor: string | null;
}

/** A page of the user's inbox, the most recently active conversation first: the first without a cursor. */
export async function listConversations(userId: string, cursor: string | null, signal?: AbortSignal): Promise<InboxPage> {
  let nextCursor: string | null = null;
  const conversations = await call('GET /conversations/:userId', {
    params: { userId },
    query: { cursor: cursor ?? undefined },
    signal,
    onHeaders: (headers) => (nextCursor = headers.get(INBOX_CURSOR_HEADER)),
  });
  return { conversations, nextCursor };
}

/** One conversation, as its member may see it (members only). */
export function findConversation(conversationId: string, signal?: AbortSignal) {
  return call('GET /conversations/find/:conversationId', { params: { conversationId }, signal });
}

/** A page of a conversation (1 = the newest), oldest first. Reading it marks the conversation read. */
export function getMessages(conversationId: string, page: number, signal?: AbortSignal) {
  return call('GET /messages/:conversationId', { params: { conversationId }, query: { page }, signal });
}

/** The HTTP way to send, used when the socket is not connected. */
export function postMessage(body: { conversationId: string; senderUserId: string; text: string; clientId?: string }) {
  return call('POST /messages/send', { body });
}

// ---- the query cache ----------------------------------------------------------------------------

export const conversationKeys = {
  all: ['conversations'] as const,
  lists: () => [...conversationKeys.all, 'list'] as const,
  list: (userId: string) => [...conversationKeys.lists(), userId] as const,
  detail: (conversationId: string) => [...conversationKeys.all, 'detail', conversationId] as const,
  messages: (conversationId: string) => [...conversationKeys.all, 'messages', conversationId] as const,
};

/** The cached inbox: its pages, the first (newest) first. */
export type InboxData = InfiniteData<InboxPage, unknown>;

/**
 * The inbox, 25 conversations a page. Kept for the whole session (the socket keeps it live,
 * system notifications take the sender's name from it); `unreadCount` is raised live and zeroed
 * when a conversation is read.
 */
export function conversationListQuery(userId: string) {
  return infiniteQueryOptions({
    queryKey: conversationKeys.list(userId),
    queryFn: ({ pageParam, signal }) => listConversations(userId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** Every conversation of a cached inbox once, in its order (one moved to the top is on the first page). */
export function inboxList(data: InboxData | undefined): ConversationView[] {
  const seen = new Set<string>();
  const list: ConversationView[] = [];
  for (const page of data?.pages ?? [])
    for (const c of page.conversations) {
      if (seen.has(c._id)) continue;
      seen.add(c._id);
      list.push(c);
    }
  return list;
}

export function useConversationsQuery(userId: string) {
  return useInfiniteQuery(conversationListQuery(userId));
}

/** One conversation of the cached inbox, or undefined. */
export function inboxConversation(queryClient: QueryClient, userId: string, conversationId: string): ConversationView | undefined {
  return inboxList(queryClient.getQueryData<InboxData>(conversationKeys.list(userId))).find((c) => c._id === conversationId);
}

/** One conversation as the cached inbox holds it (no fetch of its own), or null. */
export function useInboxConversation(userId: string, conversationId: string): ConversationView | null {
  const { data } = useInfiniteQuery({
    ...conversationListQuery(userId),
    enabled: false,
    select: (inbox) => inboxList(inbox).find((c) => c._id === conversationId) ?? null,
  });
  return data ?? null;
}

export function useConversationQuery(conversationId: string) {
  return useQuery({
    queryKey: conversationKeys.detail(conversationId),
    queryFn: ({ signal }) => findConversation(conversationId, signal),
  });
}

/** Reads a thread's newest page again (which marks it read) and puts what is new into the cached thread. */
export async function readNewestPage(queryClient: QueryClient, conversationId: string): Promise<MessagesPage> {
  const page = await getMessages(conversationId, 1);
  addToThread(queryClient, conversationId, page.messages);
  return page;
}

/** A thread as cached: its pages, the newest first, each oldest first. */
export type ThreadData = InfiniteData<MessagesPage>;

/**
 * A thread, 25 messages a page, the newest page first. `fetchPage` wraps each page's read (the
 * thread marks itself read around the newest one).
 */
export function messagesQuery(
  conversationId: string,
  fetchPage: (page: number, signal: AbortSignal) => Promise<MessagesPage> = (page, signal) => getMessages(conversationId, page, signal),
) {
  return infiniteQueryOptions({
    queryKey: conversationKeys.messages(conversationId),
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, page) => (last.messages.length >= MESSAGE_PAGE_SIZE ? page + 1 : undefined),
  });
}

export function useMessagesQuery(conversationId: string, fetchPage?: (page: number, signal: AbortSignal) => Promise<MessagesPage>) {
  return useInfiniteQuery(messagesQuery(conversationId, fetchPage));
}

/** Every message of a cached thread, once each, in `seq` order. */
export function threadMessages(data: ThreadData | undefined): MessageView[] {
  return (data?.pages ?? []).reduce<MessageView[]>((all, page) => mergeMessages(all, page.messages), []);
}

/** Puts messages (live, sent, or a re-read newest page) into a cached thread; nothing when it is not cached. */
export function addToThread(queryClient: QueryClient, conversationId: string, messages: readonly MessageView[]): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.messages(conversationId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const [newest, ...older] = data.pages;
    const merged = mergeMessages(newest.messages, messages);
    return merged === newest.messages ? data : { ...data, pages: [{ ...newest, messages: merged }, ...older] };
  });
}

/** Every page of the cached inbox with `change` applied to each conversation. */
function mapInbox(queryClient: QueryClient, userId: string, change: (c: ConversationView) => ConversationView): void {
  queryClient.setQueryData<InboxData>(
    conversationKeys.list(userId),
    (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, conversations: page.conversations.map(change) })) },
  );
}

/**
 * A new message in the cached inbox: its conversation moves to the top of the first page with it
 * (a later page may still hold its old place: `inboxList` shows it once). Answers false when the
 * inbox is cached but does not hold the conversation (a new one, or one further down than loaded).
 */
export function moveToTopOfInbox(queryClient: QueryClient, userId: string, conversationId: string, message: MessageView): boolean {
  let known = true;
  queryClient.setQueryData<InboxData>(conversationKeys.list(userId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const current = inboxList(data).find((c) => c._id === conversationId);
    if (!current) {
      known = false;
      return data;
    }
    if (current.lastMessage && current.lastMessage.seq >= message.seq) return data;
    const moved = { ...current, lastMessage: message };
    const pages = data.pages.map((page, i) => {
      const others = page.conversations.filter((c) => c._id !== conversationId);
      return { ...page, conversations: i === 0 ? [moved, ...others] : others };
    });
    return { ...data, pages };
  });
  return known;
}

/** The cached inbox's unread count of one conversation. */
export function inboxUnread(queryClient: QueryClient, userId: string, conversationId: string): number {
  return inboxConversation(queryClient, userId, conversationId)?.unreadCount ?? 0;
}

export function setInboxUnread(queryClient: QueryClient, userId: string, conversationId: string, count: (current: number) => number): void {
  mapInbox(queryClient, userId, (c) => (c._id === conversationId ? { ...c, unreadCount: Math.max(0, count(c.unreadCount)) } : c));
}

/** What sends a message: the session's socket (with its HTTP fallback), else plain HTTP. */
export interface MessageSender {
  send(conversationId: string, text: string, clientId: string): Promise<MessageView>;
}

/** Sends one message (`clientId` names it while it is pending); the sent message joins the thread. */
export function useSendMessage(conversationId: string, senderUserId: string, sender: MessageSender | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ clientId, text }: { clientId: string; text: string }) =>
      sender ? sender.send(conversationId, text, clientId) : (await postMessage({ conversationId, senderUserId, text, clientId })).message,
    onSuccess: (message) => addToThread(queryClient, conversationId, [message]),
  });
}

/** The reader sends an anonymous gift back to its giver (once per `key`). */
export function returnGift(conversationId: string, messageId: string, key: string): Promise<ReturnGiftResponse> {
  return call('POST /conversations/:conversationId/gifts/:messageId/return', { params: { conversationId, messageId }, ...idempotent(key) });
}
