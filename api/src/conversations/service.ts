import crypto from 'node:crypto';
import { Not, type EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { forbidden, notFound } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { ConversationEntity, MessageEntity, type Conversation, type Message } from './entity.js';
import { presentConversation, presentMessage, type ConversationView, type MessageView } from './presenter.js';

export interface GiftDetails {
  title: string;
  giftType: 'item' | 'currency';
  img: string | null;
}

/**
 * Opens (or reuses) the conversation from a giver to the person they gave to, and posts the gift
 * message in it, inside the caller's transaction. The giver stays anonymous to the recipient.
 */
export async function recordGiftMessage(
  em: EntityManager,
  input: { giverId: string; recipientId: string; text: string; gift: GiftDetails },
): Promise<{ conversation: Conversation; message: Message }> {
  const now = new Date();
  await em
    .createQueryBuilder()
    .insert()
    .into(ConversationEntity)
    .values({
      id: crypto.randomUUID(),
      initiatorId: input.giverId,
      responderId: input.recipientId,
      initiatorAnonymous: true,
      lastMessageId: null,
      lastMessageAt: now,
      createdAt: now,
    })
    .orIgnore()
    .execute();
  const conversation = await em.findOneByOrFail(ConversationEntity, {
    initiatorId: input.giverId,
    responderId: input.recipientId,
  });
  const message: Message = {
    id: crypto.randomUUID(),
    conversationId: conversation.id,
    senderId: input.giverId,
    text: input.text,
    messageType: 'gift',
    giftTitle: input.gift.title,
    giftType: input.gift.giftType,
    giftImg: input.gift.img,
    read: false,
    createdAt: now,
  };
  await em.insert(MessageEntity, message);
  await em.update(ConversationEntity, { id: conversation.id }, { lastMessageId: message.id, lastMessageAt: now });
  return { conversation: { ...conversation, lastMessageId: message.id, lastMessageAt: now }, message };
}

export const MESSAGE_PAGE_SIZE = 25;

const isMember = (c: Conversation, userId: string) => c.initiatorId === userId || c.responderId === userId;

/** The conversation, for its members only. */
export async function memberConversation(db: Database, viewerId: string, conversationId: string): Promise<Conversation> {
  const conversation = await db.manager.findOneBy(ConversationEntity, { id: conversationId });
  if (!conversation) throw notFound('Conversation not found');
  if (!isMember(conversation, viewerId)) throw forbidden();
  return conversation;
}

async function viewOf(db: Database, c: Conversation, viewerId: string): Promise<ConversationView> {
  const otherId = c.initiatorId === viewerId ? c.responderId : c.initiatorId;
  const [other, last, unread] = await Promise.all([
    db.manager.findOneBy(UserEntity, { id: otherId }),
    c.lastMessageId ? db.manager.findOneBy(MessageEntity, { id: c.lastMessageId }) : Promise.resolve(null),
    db.manager.countBy(MessageEntity, { conversationId: c.id, senderId: Not(viewerId), read: false }),
  ]);
  return presentConversation(c, viewerId, other, last, unread);
}

export async function listConversations(db: Database, viewerId: string): Promise<ConversationView[]> {
  const conversations = await db.manager.find(ConversationEntity, {
    where: [{ initiatorId: viewerId }, { responderId: viewerId }],
    order: { lastMessageAt: 'DESC' },
    take: 200,
  });
  return Promise.all(conversations.map((c) => viewOf(db, c, viewerId)));
}

export async function findConversation(db: Database, viewerId: string, conversationId: string): Promise<ConversationView> {
  return viewOf(db, await memberConversation(db, viewerId, conversationId), viewerId);
}

/**
 * A page of messages, newest page first (each page in time order), for members only. Opening the
 * conversation marks the other member's messages read.
 */
export async function listMessages(
  db: Database,
  viewerId: string,
  conversationId: string,
  page: number,
): Promise<{ messages: MessageView[]; markedAsRead: number }> {
  const conversation = await memberConversation(db, viewerId, conversationId);
  const rows = await db.manager.find(MessageEntity, {
    where: { conversationId },
    order: { createdAt: 'DESC', id: 'DESC' },
    skip: (page - 1) * MESSAGE_PAGE_SIZE,
    take: MESSAGE_PAGE_SIZE,
  });
  const marked = await db.transaction((em) =>
    em
      .createQueryBuilder()
      .update(MessageEntity)
      .set({ read: true })
      .where('conversation_id = :conversationId AND sender_id <> :viewerId AND read = :unread', {
        conversationId,
        viewerId,
        unread: false,
      })
      .execute(),
  );
  return {
    messages: rows.reverse().map((m) => presentMessage(conversation, viewerId, m)),
    markedAsRead: marked.affected ?? 0,
  };
}

/** Messages sent to the user that they have not read yet. */
export async function unreadMessageCount(db: Database, userId: string): Promise<number> {
  const row = await db.manager
    .createQueryBuilder(MessageEntity, 'm')
    .innerJoin('Conversation', 'c', 'c.id = m.conversation_id')
    .where('(c.initiator_id = :userId OR c.responder_id = :userId)', { userId })
    .andWhere('m.sender_id <> :userId', { userId })
    .andWhere('m.read = :unread', { unread: false })
    .getCount();
  return row;
}
