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
import { MESSAGE_PAGE_SIZE } from '../../../api/contract/limits';
import { mergeMessages } from '../messageText';
import { api } from './client';
import type { ConversationView, MessageView, MessagesPage, SendMessageResponse } from './types';

const enc = encodeURIComponent;

export { MESSAGE_PAGE_SIZE };
export { CONVERSATIONS_ERROR, FIND_CONVERSATION_ERROR, MESSAGES_ERROR, SEND_ERROR } from '../../../api/contract/texts';

/** The user's inbox, the most recently active conversation first. */
export function listConversations(userId: string, signal?: AbortSignal) {
  return api.get<ConversationView[]>(`/conversations/${enc(userId)}`, { signal });
}

/** One conversation, as its member may see it (members only). */
export function findConversation(conversationId: string, signal?: AbortSignal) {
  return api.get<ConversationView>(`/conversations/find/${enc(conversationId)}`, { signal });
}

/** A page of a conversation (1 = the newest), oldest first. Reading it marks the conversation read. */
export function getMessages(conversationId: string, page: number, signal?: AbortSignal) {
  return api.get<MessagesPage>(`/messages/${enc(conversationId)}?page=${page}`, { signal });
}

/** The HTTP way to send, used when the socket is not connected. */
export function postMessage(body: { conversationId: string; senderUserId: string; text: string; clientId?: string }) {
  return api.post<SendMessageResponse>('/messages/send', body);
}

// ---- the query cache ----------------------------------------------------------------------------

export const conversationKeys = {
  all: ['conversations'] as const,
  lists: () => [...conversationKeys.all, 'list'] as const,
  list: (userId: string) => [...conversationKeys.lists(), userId] as const,
  detail: (conversationId: string) => [...conversationKeys.all, 'detail', conversationId] as const,
  messages: (conversationId: string) => [...conversationKeys.all, 'messages', conversationId] as const,
};

/**
 * The inbox. Kept for the whole session (the socket keeps it live, system notifications take the
 * sender's name from it); `unreadCount` is raised live and zeroed when a conversation is read.
 */
export function conversationListQuery(userId: string) {
  return queryOptions({
    queryKey: conversationKeys.list(userId),
    queryFn: ({ signal }) => listConversations(userId, signal),
    gcTime: Number.POSITIVE_INFINITY,
  });
}

export function useConversationsQuery(userId: string) {
  return useQuery(conversationListQuery(userId));
}

/** One conversation as the cached inbox holds it (no fetch of its own), or null. */
export function useInboxConversation(userId: string, conversationId: string): ConversationView | null {
  const { data } = useQuery({
    ...conversationListQuery(userId),
    enabled: false,
    select: (list) => list.find((c) => c._id === conversationId) ?? null,
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

/**
 * A new message in the cached inbox: its conversation moves to the top with it. Answers false
 * when the inbox is cached but does not hold the conversation (a new one).
 */
export function moveToTopOfInbox(queryClient: QueryClient, userId: string, conversationId: string, message: MessageView): boolean {
  let known = true;
  queryClient.setQueryData<ConversationView[]>(conversationKeys.list(userId), (list) => {
    if (!list) return list;
    const index = list.findIndex((c) => c._id === conversationId);
    if (index === -1) {
      known = false;
      return list;
    }
    const current = list[index];
    if (current.lastMessage && current.lastMessage.seq >= message.seq) return list;
    return [{ ...current, lastMessage: message }, ...list.slice(0, index), ...list.slice(index + 1)];
  });
  return known;
}

/** The cached inbox's unread count of one conversation. */
export function inboxUnread(queryClient: QueryClient, userId: string, conversationId: string): number {
  return (
    queryClient.getQueryData<ConversationView[]>(conversationKeys.list(userId))?.find((c) => c._id === conversationId)?.unreadCount ?? 0
  );
}

export function setInboxUnread(queryClient: QueryClient, userId: string, conversationId: string, count: (current: number) => number): void {
  queryClient.setQueryData<ConversationView[]>(conversationKeys.list(userId), (list) =>
    list?.map((c) => (c._id === conversationId ? { ...c, unreadCount: Math.max(0, count(c.unreadCount)) } : c)),
  );
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
