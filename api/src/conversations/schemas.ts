import { z } from 'zod';

/** The longest message a member can send (the messages.text column holds 2000). */
export const MESSAGE_MAX_LENGTH = 2000;
/** How many missed messages one `missed-messages` answer carries at most. */
export const MISSED_MESSAGES_LIMIT = 500;

const id = z.string().min(1).max(64);

export const MessageText = z
  .string()
  .trim()
  .min(1, 'text: must not be blank')
  .max(MESSAGE_MAX_LENGTH, `text: must be at most ${MESSAGE_MAX_LENGTH} characters`);

/** `POST /messages/send` and the socket's `sendMessage`. */
export const SendMessageBody = z.object({
  conversationId: id,
  text: MessageText,
  /** Must be the caller when present (identity comes from the token). */
  senderUserId: id.optional(),
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
  lastMessageId: id.nullish(),
  conversationId: id.nullish(),
});
export type LastMessageIdInput = z.output<typeof LastMessageIdBody>;

export const UserIdParams = z.object({ userId: id });
export const ConversationParams = z.object({ conversationId: id });
export const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
export const UnreadQuery = z.object({ userId: z.string().max(64).optional() });
