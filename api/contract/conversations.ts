import { z } from 'zod';
import { idSchema } from './common.js';
import { MESSAGE_MAX_LENGTH } from './limits.js';

export const MessageText = z
  .string()
  .trim()
  .min(1, 'text: must not be blank')
  .max(MESSAGE_MAX_LENGTH, `text: must be at most ${MESSAGE_MAX_LENGTH} characters`);

/** `POST /messages/send` and the socket's `sendMessage`. */
export const SendMessageBody = z.object({
  conversationId: idSchema,
  text: MessageText,
  /** Must be the caller when present (identity comes from the token). */
  senderUserId: idSchema.optional(),
  /**
   * Ignored: the receiver is the conversation's other member. Never checked against it either,
   * or a recipient could test guesses of an anonymous giver's id.
   */
  receiverUserId: z.string().max(64).nullish(),
  /** A client's id for a pending message, echoed back. */
  clientId: z.string().max(100).optional(),
});
export type SendMessageInput = z.output<typeof SendMessageBody>;

/** The socket's `last_message_id`. */
export const LastMessageIdBody = z.object({
  lastMessageId: idSchema.nullish(),
  conversationId: idSchema.nullish(),
});
export type LastMessageIdInput = z.output<typeof LastMessageIdBody>;

export const UserIdParams = z.object({ userId: idSchema });
export const ConversationParams = z.object({ conversationId: idSchema });
export const UnreadQuery = z.object({ userId: z.string().max(64).optional() });

/** The other member of a conversation, as the viewer may see them. */
export interface OtherPartyView {
  _id: string | null;
  username: string;
  displayName: string;
  profilePicture: string | null;
  anonymous: boolean;
  /** The verified badge: a named member only. Never present for the anonymous giver, who has no user data at all. */
  isSubscribed?: boolean;
}

export interface MessageView {
  _id: string;
  conversationId: string;
  senderUserId: string;
  mine: boolean;
  text: string;
  messageType: 'normal' | 'gift';
  giftDetails: { title: string | null; giftType: 'item' | 'currency' | null; img: string | null } | null;
  read: boolean;
  createdAt: string;
  /** Strictly increasing over all messages, in commit order: sort and de-duplicate by it. */
  seq: number;
}

export interface ConversationView {
  _id: string;
  initiatorUserId: string;
  responderUserId: string;
  otherUser: OtherPartyView;
  /** True for the giver of an anonymous conversation: the other side does not know who they are. */
  youAreAnonymous: boolean;
  lastMessage: MessageView | null;
  unreadCount: number;
}

/** `GET /messages/{conversationId}?page=`: one page, oldest first; opening it marks it read. */
export interface MessagesPage {
  messages: MessageView[];
  markedAsRead: number;
}

/** `POST /messages/send`. */
export interface SendMessageResponse {
  _id: string;
  message: MessageView;
}

/** `GET /messages/unread`. */
export interface UnreadMessagesResponse {
  unreadCount: number;
}
