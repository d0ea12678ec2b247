import { In } from 'typeorm';
import type { Database } from '../db/index.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Publisher } from '../realtime/publisher.js';
import { ConversationEntity, MessageEntity, type Conversation } from './entity.js';
import { namedPairKey } from '../identity/identity.js';
import { canSeeConversation, canSeeMember, canSeePresence } from './policy.js';
import { presentConversation, presentMessage, type ConversationView, type MessageView } from './presenter.js';
import { MISSED_MESSAGES_LIMIT } from '../../contract/limits.js';
import { type InboxQuery, type LastMessageIdInput } from '../../contract/conversations.js';
import { INBOX_CURSOR_INVALID } from '../../contract/texts.js';
import { inbox, inboxConversation, type InboxCursor, type InboxRow } from './store.js';
import { markConversationNotificationsRead } from '../notifications/service.js';

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

/** The view for `viewerId` of one conversation of their inbox. */
const viewOf = (row: InboxRow, viewerId: string, now?: Date): ConversationView =>
  presentConversation(row.conversation, viewerId, row.other, row.last, row.unreadCount, now);

/** An inbox page and, when it is full, the cursor of the page after it. */
export interface InboxPage {
  conversations: ConversationView[];
  nextCursor: string | null;
  /** When the page could change with no write: the first badge shown on it to run out (ms, or Infinity). */
  changesBy: number;
}

/** The first time a badge the viewer sees on `rows` ends (`isSubscribed`), after `now`. */
function firstBadgeEnd(rows: InboxRow[], viewerId: string, now: Date): number {
  let end = Number.POSITIVE_INFINITY;
  for (const { conversation, other } of rows) {
    const until = other?.subscribedUntil?.getTime();
    if (until !== undefined && until > now.getTime() && canSeeMember(conversation, viewerId, other!.id)) end = Math.min(end, until);
  }
  return end;
}

const encodeCursor = ({ asOf, at, id }: InboxCursor) => Buffer.from(`${asOf}.${at.getTime()}.${id}`).toString('base64url');

/** The cursor an inbox answered, or a 400: it is read back from the client, so nothing in it is trusted but its shape. */
function decodeCursor(cursor: string): InboxCursor {
  const match = /^(\d{1,16})\.(\d{1,15})\.([\w-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const at = match ? new Date(Number(match[2])) : null;
  if (!match || !at || Number.isNaN(at.getTime()) || !Number.isSafeInteger(Number(match[1])))
    throw badRequest(INBOX_CURSOR_INVALID, 'validation_failed');
  return { asOf: Number(match[1]), at, id: match[3] };
}

/**
 * A page of the viewer's inbox, the most recently active first. The first page's cursor keeps
 * the number of the newest message it showed, and every later page is cut as of it.
 */
export async function listConversations(db: Database, viewerId: string, query: InboxQuery, now = new Date()): Promise<InboxPage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await inbox(db, viewerId, query.limit, cursor);
  const last = rows.at(-1);
  const asOf = cursor?.asOf ?? rows.reduce((max, row) => Math.max(max, row.last?.seq ?? 0), 0);
  return {
    conversations: rows.map((row) => viewOf(row, viewerId, now)),
    nextCursor: last && rows.length === query.limit ? encodeCursor({ asOf, at: last.pageKey, id: last.conversation.id }) : null,
    changesBy: firstBadgeEnd(rows, viewerId, now),
  };
}

/** One conversation's view, for its members: its row, membership and view in one read. */
export async function findConversation(db: Database, viewerId: string, conversationId: string): Promise<ConversationView> {
  const row = await inboxConversation(db, viewerId, conversationId);
  allowed(row?.conversation ?? null, viewerId, canSeeConversation);
  return viewOf(row!, viewerId);
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
  // The gift's notification is read with its message: one gift raises one unread count.
  const [markedAsRead, notificationsRead] = await db.transaction(async (em) => {
    const marked = await em
      .createQueryBuilder()
      .update(MessageEntity)
      .set({ read: true })
      .where('conversation_id = :conversationId AND sender_id <> :viewerId AND read = :unread', {
        conversationId,
        viewerId,
        unread: false,
      })
      .execute();
    return [marked.affected ?? 0, await markConversationNotificationsRead(em, viewerId, conversationId)];
  });
  // Every tab of the viewer lowers its Messages and Notifications badges.
  if (markedAsRead > 0 || notificationsRead > 0) realtime.publish([{ type: 'unread', userId: viewerId }]);
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
