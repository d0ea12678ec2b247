import crypto from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { MESSAGE_UNDELIVERABLE } from '../../contract/texts.js';
import { assertCanReach } from '../blocks/service.js';
import { forbidden, notFound } from '../errors.js';
import { spend, type RateLimits } from '../limits/rate-limits.js';
import type { Publisher } from '../realtime/publisher.js';
import { UserEntity } from '../users/entity.js';
import { canActAs } from '../users/policy.js';
import { AnonymousPseudonymEntity, ConversationEntity, CounterEntity, MessageEntity, type Conversation, type Message } from './entity.js';
import { canMessage, canSeeConversation, canSeePresence } from './policy.js';
import { checkMessageText } from '../moderation/filter.js';
import { presentConversation, presentMessage, type ConversationView, type MessageView } from './presenter.js';
import { MISSED_MESSAGES_LIMIT, type LastMessageIdInput, type SendMessageInput } from './schemas.js';

const MESSAGE_SEQ = 'message_seq';

/**
 * The new message's number, inside the caller's transaction, so that numbers follow commit order
 * (see the 1763870500000 migration). SQLite has one writer: take the next one now. PostgreSQL: null,
 * its commit trigger assigns it; read it after the commit with `committedSeq`.
 */
async function newMessageSeq(em: EntityManager): Promise<number | null> {
  if (em.dataSource.driver.options.type === 'postgres') return null;
  await em.increment(CounterEntity, { name: MESSAGE_SEQ }, 'value', 1);
  const counter = await em.findOneByOrFail(CounterEntity, { name: MESSAGE_SEQ });
  return counter.value;
}

/** The message with its number, once its transaction has committed. */
export async function withCommittedSeq(db: Database, message: Message): Promise<Message> {
  if (message.seq !== null) return message;
  const row = await db.manager.findOneOrFail(MessageEntity, { where: { id: message.id }, select: { id: true, seq: true } });
  return { ...message, seq: row.seq };
}

export interface GiftDetails {
  title: string;
  giftType: 'item' | 'currency';
  img: string | null;
}

/**
 * Who the recipient of a gift sees as its giver: `anonymous` for a gift to a receive link or from
 * a wishlist (the giver is hidden), `named` where the recipient knows the giver by construction
 * (accepting someone's give link).
 */
export type GiverIdentity = 'anonymous' | 'named';

/**
 * The key of the one conversation a gift goes to. Named: the unordered pair, so gifts either way
 * between two people who know each other share a thread. Anonymous: the giver's pseudonym towards
 * this recipient (random, made once), so all of one giver's anonymous gifts to one person share a
 * thread that is never the named one, and nothing about it is derived from the two ids.
 */
export async function conversationKey(em: EntityManager, identity: GiverIdentity, giverId: string, recipientId: string): Promise<string> {
  if (identity === 'named') {
    const [a, b] = [giverId, recipientId].sort();
    return `named:${a}:${b}`;
  }
  await em
    .createQueryBuilder()
    .insert()
    .into(AnonymousPseudonymEntity)
    .values({ id: crypto.randomUUID(), giverId, recipientId, createdAt: new Date() })
    .orIgnore()
    .execute();
  const pseudonym = await em.findOneByOrFail(AnonymousPseudonymEntity, { giverId, recipientId });
  return `anon:${pseudonym.id}`;
}

/**
 * Opens (or reuses) the conversation for a gift and posts the gift message in it, inside the
 * caller's transaction. An anonymous giver stays anonymous to the recipient in it; a named gift
 * goes to the named conversation of the two, never to an anonymous one.
 * On PostgreSQL the message's `seq` is null until the commit; publishing it reads it then.
 */
export async function recordGiftMessage(
  em: EntityManager,
  input: { giverId: string; recipientId: string; identity: GiverIdentity; text: string; gift: GiftDetails },
): Promise<{ conversation: Conversation; message: Message }> {
  const now = new Date();
  const pairKey = await conversationKey(em, input.identity, input.giverId, input.recipientId);
  await em
    .createQueryBuilder()
    .insert()
    .into(ConversationEntity)
    .values({
      id: crypto.randomUUID(),
      initiatorId: input.giverId,
      responderId: input.recipientId,
      initiatorAnonymous: input.identity === 'anonymous',
      pairKey,
      lastMessageId: null,
      lastMessageAt: now,
      createdAt: now,
    })
    .orIgnore()
    .execute();
  const conversation = await em.findOneByOrFail(ConversationEntity, { pairKey });
  const id = crypto.randomUUID();
  await em.update(ConversationEntity, { id: conversation.id }, { lastMessageId: id, lastMessageAt: now });
  const message: Message = {
    id,
    conversationId: conversation.id,
    senderId: input.giverId,
    text: input.text,
    messageType: 'gift',
    giftTitle: input.gift.title,
    giftType: input.gift.giftType,
    giftImg: input.gift.img,
    read: false,
    createdAt: now,
    seq: await newMessageSeq(em),
  };
  await em.insert(MessageEntity, { ...message });
  return { conversation: { ...conversation, lastMessageId: message.id, lastMessageAt: now }, message };
}

export { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';
import { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';

/** The conversation, for whom `may` allows (its members: `canSeeConversation`, `canMessage`). */
export async function memberConversation(
  db: Database,
  viewerId: string,
  conversationId: string,
  may: (userId: string, c: Conversation) => boolean = canSeeConversation,
): Promise<Conversation> {
  const conversation = await db.manager.findOneBy(ConversationEntity, { id: conversationId });
  if (!conversation) throw notFound('Conversation not found');
  if (!may(viewerId, conversation)) throw forbidden();
  return conversation;
}

/**
 * The views of `conversations` for `viewerId` in a fixed number of reads, however many there are:
 * the other members, the last messages, and the unread counts (one grouped count).
 */
async function viewsOf(db: Database, conversations: Conversation[], viewerId: string): Promise<ConversationView[]> {
  if (conversations.length === 0) return [];
  const otherOf = (c: Conversation) => (c.initiatorId === viewerId ? c.responderId : c.initiatorId);
  const otherIds = [...new Set(conversations.map(otherOf))];
  const lastIds = conversations.flatMap((c) => (c.lastMessageId ? [c.lastMessageId] : []));
  const [others, lasts, unreadRows] = await Promise.all([
    db.manager.findBy(UserEntity, { id: In(otherIds) }),
    lastIds.length ? db.manager.findBy(MessageEntity, { id: In(lastIds) }) : Promise.resolve([]),
    db.manager
      .createQueryBuilder(MessageEntity, 'm')
      .select('m.conversationId', 'conversation_id')
      .addSelect('COUNT(*)', 'n')
      .where('m.conversationId IN (:...ids)', { ids: conversations.map((c) => c.id) })
      .andWhere('m.senderId <> :viewerId', { viewerId })
      .andWhere('NOT m.read')
      .groupBy('m.conversationId')
      .getRawMany<{ conversation_id: string; n: number | string }>(),
  ]);
  const users = new Map(others.map((u) => [u.id, u]));
  const messages = new Map(lasts.map((m) => [m.id, m]));
  const unread = new Map(unreadRows.map((r) => [r.conversation_id, Number(r.n)]));
  return conversations.map((c) =>
    presentConversation(
      c,
      viewerId,
      users.get(otherOf(c)) ?? null,
      (c.lastMessageId && messages.get(c.lastMessageId)) || null,
      unread.get(c.id) ?? 0,
    ),
  );
}

async function viewOf(db: Database, c: Conversation, viewerId: string): Promise<ConversationView> {
  const [view] = await viewsOf(db, [c], viewerId);
  return view;
}

export async function listConversations(db: Database, viewerId: string): Promise<ConversationView[]> {
  const conversations = await db.manager.find(ConversationEntity, {
    where: [{ initiatorId: viewerId }, { responderId: viewerId }],
    order: { lastMessageAt: 'DESC' },
    take: 200,
  });
  return viewsOf(db, conversations, viewerId);
}

export async function findConversation(db: Database, viewerId: string, conversationId: string): Promise<ConversationView> {
  return viewOf(db, await memberConversation(db, viewerId, conversationId), viewerId);
}

/**
 * A page of messages, newest page first (each page in time order), for members only. Opening the
 * conversation marks the other member's messages read.
 */
export async function listMessages(
  { db, realtime }: { db: Database; realtime: Publisher },
  viewerId: string,
  conversationId: string,
  page: number,
): Promise<{ messages: MessageView[]; markedAsRead: number }> {
  const conversation = await memberConversation(db, viewerId, conversationId);
  const rows = await db.manager.find(MessageEntity, {
    where: { conversationId },
    order: { seq: 'DESC' },
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
  const markedAsRead = marked.affected ?? 0;
  // Every tab of the viewer lowers its Messages badge.
  if (markedAsRead > 0) realtime.publish([{ type: 'unread', userId: viewerId }]);
  return { messages: rows.reverse().map((m) => presentMessage(conversation, viewerId, m)), markedAsRead };
}

/** Messages sent to the user that they have not read yet. */
export async function unreadMessageCount(db: Database, userId: string): Promise<number> {
  const row = await db.manager
    .createQueryBuilder(MessageEntity, 'm')
    .innerJoin('Conversation', 'c', 'c.id = m.conversation_id')
    .where('(c.initiator_id = :userId OR c.responder_id = :userId)', { userId })
    .andWhere('m.sender_id <> :userId', { userId })
    .andWhere('NOT m.read')
    .getCount();
  return row;
}

export interface MessageDeps {
  db: Database;
  realtime: Publisher;
  limits: RateLimits;
  /** MESSAGE_RATE_LIMIT. */
  messagesPerMinute: number;
}

/**
 * A member sends a normal message (over HTTP or the socket: one path). Identity is `senderId`,
 * from the token; a `senderUserId` naming anyone else is refused. After the commit both members'
 * rooms get it, each presented for that member.
 */
export async function sendMessage(
  deps: MessageDeps,
  senderId: string,
  input: SendMessageInput,
): Promise<{ conversation: Conversation; message: Message }> {
  if (!canActAs({ id: senderId }, { userId: input.senderUserId })) throw forbidden();
  const conversation = await memberConversation(deps.db, senderId, input.conversationId, canMessage);
  checkMessageText(input.text);
  // Sends per user, over HTTP and socket together (across processes with Redis): MESSAGE_RATE_LIMIT
  // a minute (60 by default), and a sixth of it in any 5 seconds (a burst of 10).
  const perMinute = deps.messagesPerMinute;
  for (const [name, points, seconds] of [
    ['messages.send.burst', Math.max(1, Math.ceil(perMinute / 6)), 5],
    ['messages.send.minute', perMinute, 60],
  ] as const)
    await spend(deps.limits.limiter(name, points, seconds), senderId, 'You are sending messages too quickly.');
  const written = await deps.db.transaction(async (em) => {
    // Someone the other member blocked gets the answer any undeliverable message gets (blocks/policy.ts).
    const otherId = conversation.initiatorId === senderId ? conversation.responderId : conversation.initiatorId;
    await assertCanReach(em, senderId, otherId, () => forbidden(MESSAGE_UNDELIVERABLE));
    const now = new Date();
    const id = crypto.randomUUID();
    await em.update(ConversationEntity, { id: conversation.id }, { lastMessageId: id, lastMessageAt: now });
    const row: Message = {
      id,
      conversationId: conversation.id,
      senderId,
      text: input.text,
      messageType: 'normal',
      giftTitle: null,
      giftType: null,
      giftImg: null,
      read: false,
      createdAt: now,
      seq: await newMessageSeq(em),
    };
    await em.insert(MessageEntity, { ...row });
    return row;
  });
  const message = await withCommittedSeq(deps.db, written);
  const updated = { ...conversation, lastMessageId: message.id, lastMessageAt: message.createdAt };
  deps.realtime.publish([{ type: 'message', conversation: updated, message, clientId: input.clientId }]);
  return { conversation: updated, message };
}

export interface MissedMessages {
  conversationId: string | null;
  messages: MessageView[];
  hasMore: boolean;
}

/**
 * Everything after the client's last message, oldest first, each presented for the viewer: in one
 * conversation, or across all of the viewer's conversations. A message or conversation the viewer
 * is not a member of is "not found" (no hint that it exists).
 */
export async function missedMessages(
  db: Database,
  viewerId: string,
  input: LastMessageIdInput,
  limit = MISSED_MESSAGES_LIMIT,
): Promise<MissedMessages> {
  const only = input.conversationId ? await memberConversation(db, viewerId, input.conversationId) : null;
  let after = 0;
  if (input.lastMessageId) {
    const last = await db.manager.findOneBy(MessageEntity, { id: input.lastMessageId });
    const lastConversation = last && (await db.manager.findOneBy(ConversationEntity, { id: last.conversationId }));
    if (!last || !lastConversation || !canSeeConversation(viewerId, lastConversation) || (only && last.conversationId !== only.id))
      throw notFound('Message not found');
    after = last.seq ?? 0;
  }
  const qb = db.manager.createQueryBuilder(MessageEntity, 'm').where('m.seq > :after', { after });
  if (only) qb.andWhere('m.conversation_id = :conversationId', { conversationId: only.id });
  else
    qb.innerJoin('Conversation', 'c', 'c.id = m.conversation_id').andWhere('(c.initiator_id = :viewerId OR c.responder_id = :viewerId)', {
      viewerId,
    });
  const rows = await qb
    .orderBy('m.seq', 'ASC')
    .limit(limit + 1)
    .getMany();
  const page = rows.slice(0, limit);
  const conversations = new Map<string, Conversation>(only ? [[only.id, only]] : []);
  const unknown = [...new Set(page.map((m) => m.conversationId))].filter((id) => !conversations.has(id));
  if (unknown.length) for (const c of await db.manager.findBy(ConversationEntity, { id: In(unknown) })) conversations.set(c.id, c);
  return {
    conversationId: only?.id ?? null,
    messages: page.map((m) => presentMessage(conversations.get(m.conversationId)!, viewerId, m)),
    hasMore: rows.length > limit,
  };
}

/**
 * True when `viewerId` may see whether `targetId` is online (`canSeePresence`, conversations/policy.ts),
 * judged on the conversations of the two: at most a named and an anonymous one each way.
 */
export async function maySeePresence(db: Database, viewerId: string, targetId: string): Promise<boolean> {
  const shared =
    viewerId === targetId
      ? []
      : await db.manager.find(ConversationEntity, {
          where: [
            { initiatorId: viewerId, responderId: targetId },
            { initiatorId: targetId, responderId: viewerId },
          ],
        });
  return canSeePresence(viewerId, targetId, shared);
}
