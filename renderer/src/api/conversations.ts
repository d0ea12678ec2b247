import { api } from './client';
import type {
  ConversationView,
  MessagesPage,
  SendMessageResponse,
  UnreadMessagesResponse,
} from './types';

const enc = encodeURIComponent;

/** Messages come 25 to a page, newest page first; a full page means there may be more. */
export const MESSAGE_PAGE_SIZE = 25;

/** SPEC section 8, as written. */
export const CONVERSATIONS_ERROR = 'An error occured when fetching conversations. Please try again later.';
export const MESSAGES_ERROR = 'An error occured when fetching messages. Please try again later.';
export const SEND_ERROR = 'An error occured when sending your message. Try again later.';
export const FIND_CONVERSATION_ERROR =
  'An error occured when fetching conversation. You may not be able to see the message send in real time.';

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

export function getUnreadMessageCount(userId: string, signal?: AbortSignal) {
  return api.get<UnreadMessagesResponse>(`/messages/unread?userId=${enc(userId)}`, { signal });
}
