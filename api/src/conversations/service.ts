import crypto from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { dateFrom, isPostgres, read, run, sql, type SqlValue } from '../db/sql.js';
import { forbidden, notFound } from '../errors.js';
import type { Publisher } from '../realtime/publisher.js';
import { UserEntity } from '../users/entity.js';
import { AnonymousPseudonymEntity, ConversationEntity, MessageEntity, type Conversation, type Message } from './entity.js';
import { canSeeConversation, canSeePresence } from './policy.js';
import { presentConversation, presentMessage, type ConversationView, type MessageView } from './presenter.js';
import { MISSED_MESSAGES_LIMIT, type LastMessageIdInput } from './schemas.js';

const MESSAGE_SEQ = 'message_seq';

/**
 * The new message's number, inside the caller's transaction, so that numbers follow commit order
 * (see the 1763870500000 migration). SQLite has one writer: take the next one now. PostgreSQL: null,
 * its commit trigger assigns it; read it after the commit with `committedSeq`.
 */
async function newMessageSeq(em: EntityManager): Promise<number | null> {
  if (isPostgres(em)) return null;
  const { rows } = await run<{ value: number }>(em, TAKE_MESSAGE_SEQ, [MESSAGE_SEQ]);
  return Number(rows[0].value);
}
const TAKE_MESSAGE_SEQ = sql('UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value');

/** The message with its number, once its transaction has committed. */
export async function withCommittedSeq(db: Database, message: Message): Promise<Message> {
  if (message.seq !== null) return message;
  const [row] = await read<{ seq: number | string }>(db, MESSAGE_SEQ_OF, [message.id]);
  if (!row) throw new Error(`message ${message.id} is not committed`);
  return { ...message, seq: Number(row.seq) };
}
const MESSAGE_SEQ_OF = sql('SELECT seq FROM messages WHERE id = $1');

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
  // Made on the first gift (race-safe: insert or ignore), read on the next ones.
  const made = await run<{ id: string }>(em, MAKE_PSEUDONYM, [crypto.randomUUID(), giverId, recipientId, new Date()]);
  const pseudonym = made.rows[0] ?? (await em.findOneByOrFail(AnonymousPseudonymEntity, { giverId, recipientId }));
  return `anon:${pseudonym.id}`;
}
const MAKE_PSEUDONYM = sql(
  'INSERT INTO anonymous_pseudonyms (id, giver_id, recipient_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id',
);

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
  const message: Message = {
    id: appendedRowId(),
    conversationId: '',
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
  // Opens the conversation, or reuses the one its key names, with this message as its last; then
  // the message (on PostgreSQL in the same statement: one round trip).
  const opened: SqlValue[] = [
    crypto.randomUUID(),
    input.giverId,
    input.recipientId,
    input.identity === 'anonymous',
    pairKey,
    message.id,
    now,
  ];
  const content: SqlValue[] = [message.text, message.giftTitle, message.giftType, message.giftImg];
  const { rows } = isPostgres(em)
    ? await run<ConversationRow>(em, OPEN_CONVERSATION_WITH_MESSAGE, [...opened, ...content])
    : await run<ConversationRow>(em, OPEN_CONVERSATION, opened);
  const conversation = conversationFrom(rows[0]);
  message.conversationId = conversation.id;
  if (!isPostgres(em))
    await run(em, INSERT_GIFT_MESSAGE, [message.id, message.conversationId, message.senderId, ...content, message.createdAt, message.seq]);
  return { conversation, message };
}

interface ConversationRow {
  id: string;
  initiator_id: string;
  responder_id: string;
  initiator_anonymous: boolean | number;
  pair_key: string;
  last_message_id: string | null;
  last_message_at: Date | string;
  created_at: Date | string;
}

const conversationFrom = (row: ConversationRow): Conversation => ({
  id: row.id,
  initiatorId: row.initiator_id,
  responderId: row.responder_id,
  initiatorAnonymous: Boolean(row.initiator_anonymous),
  pairKey: row.pair_key,
  lastMessageId: row.last_message_id,
  lastMessageAt: dateFrom(row.last_message_at),
  createdAt: dateFrom(row.created_at),
});

/** Conversation $1 between giver $2 and recipient $3 (anonymous: $4) keyed $5, last message $6 at $7. */
const OPEN = `INSERT INTO conversations (id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
   ON CONFLICT (pair_key) DO UPDATE SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
   RETURNING id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at`;
const OPEN_CONVERSATION = sql(OPEN);
const INSERT_GIFT_MESSAGE = sql(
  `INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at, seq)
   VALUES ($1, $2, $3, $4, 'gift', $5, $6, $7, false, $8, $9)`,
);
/** PostgreSQL: the gift message ($8 text, $9-$11 the gift) goes in with it; its seq comes at COMMIT. */
const OPEN_CONVERSATION_WITH_MESSAGE = sql(
  `WITH c AS (${OPEN}), m AS (
     INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at)
     VALUES ($6, (SELECT id FROM c), $2, $8, 'gift', $9, $10, $11, false, $7)
   )
   SELECT * FROM c`,
);

export { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';
import { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';
import { appendedRowId } from '../db/ids.js';

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

export { sendMessage, type MessageDeps } from './send.js';

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
