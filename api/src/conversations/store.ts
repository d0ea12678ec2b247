import type { Database } from '../db/index.js';
import { hydrate, read, sql } from '../db/sql.js';
import { UserEntity, type User } from '../users/entity.js';
import { ConversationEntity, MessageEntity, type Conversation, type Message } from './entity.js';

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
 * last message and the viewer's unread count in it: one statement, however many there are.
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
 * missing). By the known names, not by a scan of the row's ~40 keys, which shows in an inbox of
 * 200 rows (`npm run bench -- --scenario inbox`).
 */
function prefixed(row: Record<string, unknown>, prefix: string, columns: readonly string[]): Record<string, unknown> | null {
  if (row[`${prefix}id`] === null || row[`${prefix}id`] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = row[prefix + column];
  return out;
}

/** A conversation of the viewer's inbox: the other member, the last message and the viewer's unread count in it. */
export interface InboxRow {
  conversation: Conversation;
  other: User | null;
  last: Message | null;
  unreadCount: number;
}

/** One row of `conversationViews`, hydrated as TypeORM would. */
function inboxRow(db: Database, row: Record<string, unknown>): InboxRow {
  const other = prefixed(row, OTHER, OTHER_COLUMNS);
  const last = prefixed(row, LAST, MESSAGE_COLUMNS);
  return {
    conversation: hydrate(db, ConversationEntity, row),
    other: other && hydrate(db, UserEntity, other),
    last: last && hydrate(db, MessageEntity, last),
    unreadCount: Number(row.unread_count),
  };
}

/** The viewer's conversations, latest first (200 at most), in one read. */
export async function inbox(db: Database, viewerId: string): Promise<InboxRow[]> {
  const rows = await read(db, INBOX, [viewerId]);
  return rows.map((row) => inboxRow(db, row));
}

/** One conversation as the viewer's inbox shows it, whoever its members are; undefined when there is none. */
export async function inboxConversation(db: Database, viewerId: string, conversationId: string): Promise<InboxRow | undefined> {
  const [row] = await read(db, ONE_CONVERSATION, [viewerId, conversationId]);
  return row && inboxRow(db, row);
}
