import { appendedRowId } from '../db/ids.js';
import type { Conversation, Message } from './entity.js';

/** What a member typed, as the row to write: unread, numbered when it commits. */
export function textMessageRow(conversationId: string, senderId: string, text: string): Message {
  return {
    id: appendedRowId(),
    conversationId,
    senderId,
    text,
    messageType: 'normal',
    giftTitle: null,
    giftType: null,
    giftImg: null,
    read: false,
    createdAt: new Date(),
    seq: null,
  };
}

/** The conversation as its members see it once `message` is its newest. */
export const withLastMessage = (conversation: Conversation, message: Message): Conversation => ({
  ...conversation,
  lastMessageId: message.id,
  lastMessageAt: message.createdAt,
});
