import { In } from 'typeorm';
import type { Database } from '../db/index.js';
import { hydrate, read, sql } from '../db/sql.js';
import { forbidden, notFound } from '../errors.js';
import type { Publisher } from '../realtime/publisher.js';
import { UserEntity } from '../users/entity.js';
import { ConversationEntity, MessageEntity, type Conversation } from './entity.js';
import { namedPairKey } from '../identity/identity.js';
import { canSeeConversation, canSeePresence } from './policy.js';
import { presentConversation, presentMessage, type ConversationView, type MessageView } from './presenter.js';
import { MISSED_MESSAGES_LIMIT, type LastMessageIdInput } from './schemas.js';

export { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';
import { MESSAGE_PAGE_SIZE } from '../../contract/limits.js';

type May = (userId: string, c: Conversation) => boolean;

/** `conversation` if `may` allows `viewerId` to it: a 404 when there is none, a 403 when it does not. */
function allowed(conversation: Conversation | null, viewerId: string, may: May): Conversation {
  if (!conversation) throw notFound('Conversation not found');
  if (!may(viewerId, conversation)) throw forbidden();
  return conversation;
}

/** The conversation, for whom `may` allows (its members: `canSeeConversation`, `canMessage`). */
export async function memberConversation(
  db: Database,
  viewerId: string,
  conversationId: string,
  may: May = canSeeConversation,
): Promise<Conversation> {
  return allowed(await db.manager.findOneBy(ConversationEntity, { id: conversationId }), viewerId, may);
}

/** What the inbox shows of the other member: nothing else of their row is read. */
const OTHER_COLUMNS = ['id', 'username', 'display_name', 'profile_picture', 'subscribed_until'] as const;
const MESSAGE_COLUMNS = [
  'id',
  'conversation_id',
  'sender_id',
  'text',
  'message_type',
  'gift_title',
  'gift_type',
  'gift_img',
  'read',
  'created_at',
  'seq',
] as const;
const OTHER = 'other.';
const LAST = 'last.';

/**
 * Conversations of viewer $1 that `where` picks, each with the other member's public columns, its
 * last message and the viewer's unread count in it: one statement (issue 15), however many there are.
 */
const conversationViews = (where: string) =>
  sql(`SELECT c.*,
     ${OTHER_COLUMNS.map((col) => `u.${col} AS "${OTHER}${col}"`).join(', ')},
     ${MESSAGE_COLUMNS.map((col) => `m.${col} AS "${LAST}${col}"`).join(', ')},
     (SELECT COUNT(*) FROM messages um WHERE um.conversation_id = c.id AND um.sender_id <> $1 AND NOT um.read) AS unread_count
   FROM conversations c
   LEFT JOIN users u ON u.id = CASE WHEN c.initiator_id = $1 THEN c.responder_id ELSE c.initiator_id END
   LEFT JOIN messages m ON m.id = c.last_message_id
   ${where}`);
const INBOX = conversationViews('WHERE c.initiator_id = $1 OR c.responder_id = $1 ORDER BY c.last_message_at DESC LIMIT 200');
const ONE_CONVERSATION = conversationViews('WHERE c.id = $2');

/**
 * The `columns` of `row` named `prefix`<column>, without the prefix (null if the joined row is
 * missing). By the known names, not by a scan of the row's ~40 keys: 200 rows of the inbox spent
 * 12% of its time scanning (issue 15, `npm run bench -- --scenario inbox`).
 */
function prefixed(row: Record<string, unknown>, prefix: string, columns: readonly string[]): Record<string, unknown> | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = row[prefix + column];
  return out;
}

/** The view for `viewerId` of one row of `conversationViews`, whose conversation is `conversation`. */
function viewOf(db: Database, row: Record<string, unknown>, conversation: Conversation, viewerId: string): ConversationView {
  const other = prefixed(row, OTHER, OTHER_COLUMNS);
  const last = prefixed(row, LAST, MESSAGE_COLUMNS);
  return presentConversation(
    conversation,
    viewerId,
    other && hydrate(db, UserEntity, other),
    last && hydrate(db, MessageEntity, last),
    Number(row.unread_count),
  );
}

export async function listConversations(db: Database, viewerId: string): Promise<ConversationView[]> {
  const rows = await read(db, INBOX, [viewerId]);
  return rows.map((row) => viewOf(db, row, hydrate(db, ConversationEntity, row), viewerId));
}

/** One conversation's view, for its members: its row, membership and view in one read. */
export async function findConversation(db: Database, viewerId: string, conversationId: string): Promise<ConversationView> {
  const [row] = await read(db, ONE_CONVERSATION, [viewerId, conversationId]);
  const conversation = allowed(row ? hydrate(db, ConversationEntity, row) : null, viewerId, canSeeConversation);
  return viewOf(db, row, conversation, viewerId);
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
 * judged on the named conversation of the two alone: one lookup by its unique pair key, which never
 * reads a pseudonym or an anonymous thread, so it costs the same whatever anonymous ties exist.
 */
export async function maySeePresence(db: Database, viewerId: string, targetId: string): Promise<boolean> {
  if (viewerId === targetId) return canSeePresence(viewerId, targetId, null);
  const named = await db.manager.findOneBy(ConversationEntity, { pairKey: namedPairKey(viewerId, targetId) });
  return canSeePresence(viewerId, targetId, named);
}
