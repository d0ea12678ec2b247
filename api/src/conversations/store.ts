import type { Database } from '../db/index.js';
import { dateFrom, read, sql } from '../db/sql.js';
import type { User } from '../users/entity.js';
import type { Conversation, Message } from './entity.js';

/** What the inbox shows of the other member: nothing else of their row is read (`InboxMember`). */
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
 * Conversations of viewer $1, each with the other member's public columns, its last message and
 * the viewer's unread count in it: one statement, however many there are. `from` is where the
 * conversations `c` come from and `rest` what follows the joins.
 */
const conversationViews = (from: string, rest: string, key = 'c.last_message_at') =>
  sql(`SELECT c.*, ${key} AS page_key,
     ${OTHER_COLUMNS.map((col) => `u.${col} AS "${OTHER}${col}"`).join(', ')},
     ${MESSAGE_COLUMNS.map((col) => `m.${col} AS "${LAST}${col}"`).join(', ')},
     (SELECT COUNT(*) FROM messages um WHERE um.conversation_id = c.id AND um.sender_id <> $1 AND NOT um.read) AS unread_count
   ${from}
   LEFT JOIN users u ON u.id = CASE WHEN c.initiator_id = $1 THEN c.responder_id ELSE c.initiator_id END
   LEFT JOIN messages m ON m.id = c.last_message_id
   ${rest}`);

/** Viewer $1's conversations on one side (as initiator or responder) in the inbox's order, at most $2, `after` narrowing them. */
const side = (column: 'initiator_id' | 'responder_id', after = '') =>
  `SELECT id FROM (SELECT id FROM conversations WHERE ${column} = $1 ${after} ORDER BY last_message_at DESC, id DESC LIMIT $2) ${column === 'initiator_id' ? 'mine' : 'theirs'}`;

/** The first page: the viewer's $2 most recently active conversations (read from each side, then the top of both). */
const FIRST_PAGE = conversationViews(
  `FROM (SELECT id FROM conversations WHERE id IN (${side('initiator_id')} UNION ALL ${side('responder_id')})
          ORDER BY last_message_at DESC, id DESC LIMIT $2) p
   JOIN conversations c ON c.id = p.id`,
  'ORDER BY c.last_message_at DESC, c.id DESC',
);

const BEFORE_CURSOR = 'AND (last_message_at < $4 OR (last_message_at = $4 AND id < $5))';
/** Conversations above the cursor whose last message came after the first page ($3): they may belong further down. */
const moved = (column: 'initiator_id' | 'responder_id') =>
  `SELECT c.id FROM conversations c JOIN messages m ON m.id = c.last_message_id WHERE c.${column} = $1 AND c.last_message_at >= $4 AND m.seq > $3`;

/**
 * A later page: the conversations after the cursor ($4 time, $5 id) in the order the first page
 * saw, its last message numbered $3. A conversation with newer messages than that keeps the place
 * its last message up to $3 gave it, so paging returns it once; one newer than the first page has
 * no place and comes live instead.
 */
const LATER_PAGE = conversationViews(
  `FROM (
     SELECT k.id, k.page_key FROM (
       SELECT c.id,
         CASE WHEN m.seq > $3 THEN COALESCE(
           (SELECT pm.created_at FROM messages pm WHERE pm.conversation_id = c.id AND pm.seq <= $3 ORDER BY pm.seq DESC LIMIT 1),
           c.last_message_at) ELSE c.last_message_at END AS page_key
       FROM conversations c LEFT JOIN messages m ON m.id = c.last_message_id
       WHERE c.id IN (${side('initiator_id', BEFORE_CURSOR)} UNION ALL ${side('responder_id', BEFORE_CURSOR)}
                      UNION ALL ${moved('initiator_id')} UNION ALL ${moved('responder_id')})
     ) k
     WHERE k.page_key < $4 OR (k.page_key = $4 AND k.id < $5)
     ORDER BY k.page_key DESC, k.id DESC LIMIT $2) p
   JOIN conversations c ON c.id = p.id`,
  'ORDER BY p.page_key DESC, c.id DESC',
  'p.page_key',
);
const ONE_CONVERSATION = conversationViews('FROM conversations c', 'WHERE c.id = $2');

/** What the inbox shows of the other member. */
export type InboxMember = Pick<User, 'id' | 'username' | 'displayName' | 'profilePicture' | 'subscribedUntil'>;

/** A conversation of the viewer's inbox: the other member, the last message and the viewer's unread count in it. */
export interface InboxRow {
  conversation: Conversation;
  other: InboxMember | null;
  last: Message | null;
  unreadCount: number;
  /** Its place in the inbox's order (the time of its last message, as paging saw it). */
  pageKey: Date;
}

const nullableDate = (value: unknown): Date | null => (value === null || value === undefined ? null : dateFrom(value));
const text = (value: unknown): string => value as string;
const nullableText = (value: unknown): string | null => (value ?? null) as string | null;

/**
 * One row of `conversationViews`, read by its known column names (TypeORM's hydration costs
 * more than the statement for a page of them); booleans are 0/1 and bigints text on some drivers.
 */
function inboxRow(row: Record<string, unknown>): InboxRow {
  const other = row[`${OTHER}id`];
  const last = row[`${LAST}id`];
  return {
    conversation: {
      id: text(row.id),
      initiatorId: text(row.initiator_id),
      responderId: text(row.responder_id),
      initiatorAnonymous: Boolean(row.initiator_anonymous),
      pairKey: text(row.pair_key),
      lastMessageId: nullableText(row.last_message_id),
      lastMessageAt: dateFrom(row.last_message_at),
      createdAt: dateFrom(row.created_at),
    },
    other:
      other === null || other === undefined
        ? null
        : {
            id: text(other),
            username: text(row[`${OTHER}username`]),
            displayName: text(row[`${OTHER}display_name`]),
            profilePicture: nullableText(row[`${OTHER}profile_picture`]),
            subscribedUntil: nullableDate(row[`${OTHER}subscribed_until`]),
          },
    last:
      last === null || last === undefined
        ? null
        : {
            id: text(last),
            conversationId: text(row[`${LAST}conversation_id`]),
            senderId: text(row[`${LAST}sender_id`]),
            text: text(row[`${LAST}text`]),
            messageType: row[`${LAST}message_type`] as Message['messageType'],
            giftTitle: nullableText(row[`${LAST}gift_title`]),
            giftType: nullableText(row[`${LAST}gift_type`]) as Message['giftType'],
            giftImg: nullableText(row[`${LAST}gift_img`]),
            read: Boolean(row[`${LAST}read`]),
            createdAt: dateFrom(row[`${LAST}created_at`]),
            seq: row[`${LAST}seq`] === null ? null : Number(row[`${LAST}seq`]),
          },
    unreadCount: Number(row.unread_count),
    pageKey: dateFrom(row.page_key),
  };
}

/** Where a later page of the inbox starts: after `at` and `id`, as of the first page's last message number `asOf`. */
export interface InboxCursor {
  asOf: number;
  at: Date;
  id: string;
}

/** A page of the viewer's conversations, the most recently active first, `limit` at most, in one read. */
export async function inbox(db: Database, viewerId: string, limit: number, cursor?: InboxCursor): Promise<InboxRow[]> {
  const rows = cursor
    ? await read(db, LATER_PAGE, [viewerId, limit, cursor.asOf, cursor.at, cursor.id])
    : await read(db, FIRST_PAGE, [viewerId, limit]);
  return rows.map(inboxRow);
}

/** One conversation as the viewer's inbox shows it, whoever its members are; undefined when there is none. */
export async function inboxConversation(db: Database, viewerId: string, conversationId: string): Promise<InboxRow | undefined> {
  const [row] = await read(db, ONE_CONVERSATION, [viewerId, conversationId]);
  return row && inboxRow(row);
}

const INBOX_VERSION = sql('SELECT version FROM inbox_versions WHERE user_id = $1');

/** The number that moves whenever anything of member `userId`'s first inbox page may change (the 1763872600000 migration); 0 before the first change. */
export async function inboxVersion(db: Database, userId: string): Promise<number> {
  const [row] = await read<{ version: number | string }>(db, INBOX_VERSION, [userId]);
  return row ? Number(row.version) : 0;
}
