import { z } from 'zod';
import { count, idSchema, isoTime } from './common.js';
import { INBOX_PAGE_MAX, INBOX_PAGE_SIZE, MESSAGE_MAX_LENGTH } from './limits.js';
import { INBOX_CURSOR_INVALID, NOTE_TOO_LONG } from './texts.js';

export const MessageText = z
  .string()
  .trim()
  .min(1, 'text: must not be blank')
  .max(MESSAGE_MAX_LENGTH, `text: must be at most ${MESSAGE_MAX_LENGTH} characters`);

/**
 * The optional note of a give, an accept or a purchase: the writer's first message in the gift's
 * thread, right after the gift, by the same identity (the persona, for an anonymous gift). Trimmed;
 * blank means no note.
 */
export const GiftNote = z
  .string()
  .trim()
  .max(MESSAGE_MAX_LENGTH, NOTE_TOO_LONG)
  .optional()
  .describe(
    `An optional note (at most ${MESSAGE_MAX_LENGTH} characters, no slurs): the writer's first message in the gift's thread, right after the gift, anonymous when the gift is. Blank means no note.`,
  );

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

/**
 * `GET /conversations/{userId}?cursor=&limit=`: the first page without a cursor, then the page
 * after the one whose answer carried the cursor (its `X-Next-Cursor` header, sent when the page is
 * full). The cursor holds where the first page stood, so every conversation comes once across the
 * pages even when new messages move conversations to the top meanwhile (those come live).
 */
export const InboxQuery = z.object({
  cursor: z
    .string()
    .max(200, INBOX_CURSOR_INVALID)
    .regex(/^[\w-]+$/, INBOX_CURSOR_INVALID)
    .optional(),
  limit: z.coerce
    .number({ error: `limit: must be a whole number from 1 to ${INBOX_PAGE_MAX}` })
    .int(`limit: must be a whole number from 1 to ${INBOX_PAGE_MAX}`)
    .min(1, `limit: must be a whole number from 1 to ${INBOX_PAGE_MAX}`)
    .max(INBOX_PAGE_MAX, `limit: must be a whole number from 1 to ${INBOX_PAGE_MAX}`)
    .default(INBOX_PAGE_SIZE),
});
export type InboxQuery = z.output<typeof InboxQuery>;
export const ConversationParams = z.object({ conversationId: idSchema });
/** POST /conversations/{conversationId}/gifts/{messageId}/return (an Idempotency-Key is honoured): the recipient sends an anonymous gift back. */
export const ReturnGiftParams = z.object({ conversationId: idSchema, messageId: idSchema });
/** What went back to the giver, in dollars. */
export const ReturnGiftResponse = z.object({ returned: z.number() });
export type ReturnGiftResponse = z.infer<typeof ReturnGiftResponse>;
export const UnreadQuery = z.object({ userId: z.string().max(64).optional() });

/** The other member of a conversation, as the viewer may see them: the anonymous giver has no id, no picture and no badge at all. */
export const OtherPartyView = z.object({
  _id: z.string().nullable(),
  username: z.string(),
  displayName: z.string(),
  profilePicture: z.string().nullable(),
  anonymous: z.boolean(),
  /** The verified badge: a named member only. Never present for the anonymous giver, who has no user data at all. */
  isSubscribed: z.boolean().optional(),
});
export type OtherPartyView = z.infer<typeof OtherPartyView>;

export const MessageView = z.object({
  _id: z.string(),
  conversationId: z.string(),
  senderUserId: z.string(),
  mine: z.boolean(),
  text: z.string(),
  messageType: z.enum(['normal', 'gift']),
  giftDetails: z
    .object({ title: z.string().nullable(), giftType: z.enum(['item', 'currency']).nullable(), img: z.string().nullable() })
    .nullable(),
  read: z.boolean(),
  createdAt: isoTime,
  /** Strictly increasing over all messages, in commit order: sort and de-duplicate by it. */
  seq: z.number().int(),
});
export type MessageView = z.infer<typeof MessageView>;

export const ConversationView = z.object({
  _id: z.string(),
  initiatorUserId: z.string(),
  responderUserId: z.string(),
  otherUser: OtherPartyView,
  /** True for the giver of an anonymous conversation: the other side does not know who they are. */
  youAreAnonymous: z.boolean(),
  lastMessage: MessageView.nullable(),
  unreadCount: count,
});
export type ConversationView = z.infer<typeof ConversationView>;

/** `GET /messages/{conversationId}?page=`: one page, oldest first; opening it marks it read. */
export const MessagesPage = z.object({ messages: z.array(MessageView), markedAsRead: count });
export type MessagesPage = z.infer<typeof MessagesPage>;

/** `POST /messages/send`. */
export const SendMessageResponse = z.object({ _id: z.string(), message: MessageView });
export type SendMessageResponse = z.infer<typeof SendMessageResponse>;

/** `GET /messages/unread`. */
export const UnreadMessagesResponse = z.object({ unreadCount: count });
export type UnreadMessagesResponse = z.infer<typeof UnreadMessagesResponse>;

/** `GET /api/onlineusers/{userId}` while the person is shown online (204 otherwise). */
export const OnlineResponse = z.object({ online: z.literal(true) });
export type OnlineResponse = z.infer<typeof OnlineResponse>;
