import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { dateFrom, isPostgres, run, sql, type SqlValue } from '../db/sql.js';
import { appendedRowId } from '../db/ids.js';
import { together } from '../db/together.js';
import { enqueueAlert, messageAlert } from '../alerts/outbox.js';
import { GIFT_ALERT_CTE } from '../alerts/store.js';
import { namedPairKey } from '../identity/identity.js';
import type { Notification } from '../notifications/entity.js';
import { newNotification, type NewNotification } from '../notifications/service.js';
import { insertNotification, NOTIFICATION_COLUMNS, notificationValues } from '../notifications/store.js';
import type { Conversation, Message } from './entity.js';
import { lockMembersSql } from './member-locks-store.js';

/**
 * The statements of a gift's message (conversations/gift-message.ts has its rules): the
 * conversation a gift goes to, opened or reused inside the gift's transaction, and the gift card
 * posted in it.
 */
const MESSAGE_SEQ = 'message_seq';

/**
 * SQLite: the new message's number, inside the caller's transaction, so that numbers follow commit
 * order (see the 1763870500000 migration): it has one writer, so take the next one now. PostgreSQL
 * takes it in the gift's statement, after locking the members (1763872300000 migration).
 */
async function newMessageSeq(em: EntityManager): Promise<number> {
  const { rows } = await run<{ value: number }>(em, TAKE_MESSAGE_SEQ, [MESSAGE_SEQ]);
  return Number(rows[0].value);
}
const TAKE_MESSAGE_SEQ = sql('UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value');

/** Giver $2's pseudonym towards recipient $3, made now with id $1 at $4 unless it exists: answers its id only when made here. */
export async function makePseudonym(em: EntityManager, giverId: string, recipientId: string): Promise<{ id: string } | undefined> {
  return (await run<{ id: string }>(em, MAKE_PSEUDONYM, [crypto.randomUUID(), giverId, recipientId, new Date()])).rows[0];
}
const MAKE_PSEUDONYM = sql(
  'INSERT INTO anonymous_pseudonyms (id, giver_id, recipient_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id',
);

/** The recipient's notification of a gift, but for the conversation it points to. */
type Notice = Omit<NewNotification, 'conversationId'>;

/**
 * The writes that go with a gift message (its payment, and what the payment pays for), started by
 * the gift store right after the message's own, and handed the id the payment's transfer takes.
 */
export type WithGift<A extends readonly unknown[]> = (transferId: string) => { [K in keyof A]: Promise<A[K]> };

/**
 * Writes the gift message (with its conversation opened or reused: `pairKey` answers its key) in
 * `em`'s transaction; with `notice`, the recipient's notification of it too, pointing to the
 * conversation; then what goes `alongside` it, whose results it answers in order. On PostgreSQL the
 * message is one statement, after one that locks the two members (whoever writes a message to
 * either of them waits for this transaction's commit, and numbers after it: member-locks-store.ts),
 * and the first statements of what goes alongside follow them in the same write, in the order every
 * give locks rows: the members, the message, the payment, what it pays for.
 */
export async function writeGiftMessage<A extends readonly unknown[]>(
  em: EntityManager,
  message: Message,
  input: { giverId: string; recipientId: string; identity: 'anonymous' | 'named'; alert?: boolean; pairKey: () => Promise<string> },
  notice: Notice | undefined,
  alongside: WithGift<A>,
): Promise<{ conversation: Conversation; message: Message; notification: Notification | null; alongside: A }> {
  const now = message.createdAt;
  const pairKey = input.pairKey;
  // Opens the conversation keyed $5, or reuses it, with this message as its last; then the message
  // (on PostgreSQL in the same statement: one round trip).
  const opened = (key: string): SqlValue[] => [
    crypto.randomUUID(),
    input.giverId,
    input.recipientId,
    input.identity === 'anonymous',
    key,
    message.id,
    now,
  ];
  const content: SqlValue[] = [message.text, message.giftTitle, message.giftType, message.giftImg];
  if (!isPostgres(em)) {
    message.seq = await newMessageSeq(em);
    const [row] = (await run<ConversationRow>(em, OPEN_CONVERSATION, opened(await pairKey()))).rows;
    const conversation = conversationFrom(row);
    message.conversationId = conversation.id;
    await run(em, INSERT_GIFT_MESSAGE, [message.id, message.conversationId, message.senderId, ...content, message.createdAt, message.seq]);
    const notification = notice ? newNotification({ ...notice, conversationId: conversation.id }) : null;
    if (notification) await insertNotification(em, notification);
    if (input.alert) await enqueueAlert(em, messageAlert('gift', message, input.recipientId));
    const withGift = await together(...alongside(appendedRowId()));
    return { conversation, message, notification, alongside: withGift as unknown as A };
  }
  const notification = notice ? newNotification({ ...notice, conversationId: null }) : null;
  const statements = POSTGRES[`${notification ? 'notice' : 'plain'}${input.alert ? '+alert' : ''}`];
  const rest = [...content, ...(notification ? notificationValues(notification) : [])];
  // An anonymous gift's pseudonym goes in the same statement ($5: its id if it is new). A
  // concurrent first gift of the same giver holds the members until it commits, so the statement
  // begins after it and sees its pseudonym; were one still missing from the statement's snapshot
  // (a writer that did not lock the members), the statement does nothing and the key is read.
  // All sent before this function first waits (db/together.ts): a named gift's key needs no read.
  const [, first, ...withGift] = await together(
    run(em, LOCK_MEMBERS, [input.giverId, input.recipientId]),
    input.identity === 'anonymous'
      ? run<GiftRow>(em, statements.anonymous, [...opened(crypto.randomUUID()), ...rest])
      : run<GiftRow>(em, statements.keyed, [...opened(namedPairKey(input.giverId, input.recipientId)), ...rest]),
    ...alongside(appendedRowId()),
  );
  let rows = first.rows;
  if (!rows.length) rows = (await run<GiftRow>(em, statements.keyed, [...opened(await pairKey()), ...rest])).rows;
  const conversation = conversationFrom(rows[0]);
  message.conversationId = conversation.id;
  message.seq = Number(rows[0].message_seq);
  if (notification) notification.conversationId = conversation.id;
  return { conversation, message, notification, alongside: withGift as unknown as A };
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

/** PostgreSQL: the gift's statement answers the conversation and the gift message's number. */
type GiftRow = ConversationRow & { message_seq: string | number };

/** PostgreSQL: the two members of a gift's conversation, locked to the commit before its message takes a number. */
const LOCK_MEMBERS = sql(lockMembersSql('SELECT $1::varchar AS x UNION SELECT $2::varchar'));

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
/**
 * PostgreSQL: what follows the conversation `c` in one statement: the gift message ($8 text,
 * $9-$11 the gift; its number from the sequence, the members being locked) and, with a notice, the
 * notification ($12-$25, the values of NOTIFICATION_COLUMNS but the conversation, which is `c`'s).
 * Answers `c` and the message's number.
 */
const afterConversation = (notice: boolean, alert: boolean) =>
  `, m AS (
     INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at, seq)
     SELECT $6, c.id, $2, $8, 'gift', $9, $10, $11, false, $7, nextval('message_seq_numbers') FROM c
     RETURNING seq
   )${
     notice
       ? `, n AS (
     INSERT INTO notifications (${NOTIFICATION_COLUMNS})
     SELECT $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, c.id FROM c
   )`
       : ''
   }${alert ? `, ${GIFT_ALERT_CTE}` : ''}
   SELECT c.*, (SELECT seq FROM m) AS message_seq FROM c`;

/**
 * PostgreSQL, an anonymous gift: the giver's pseudonym towards the recipient (made with id $5 if
 * there is none) and the conversation it keys. Answers no row when the pseudonym exists but is not
 * in the statement's snapshot.
 */
const OPEN_ANONYMOUS = `WITH p AS (
     INSERT INTO anonymous_pseudonyms (id, giver_id, recipient_id, created_at) VALUES ($5, $2, $3, $7)
     ON CONFLICT DO NOTHING RETURNING id
   ), k AS (
     (SELECT id FROM p UNION ALL SELECT id FROM anonymous_pseudonyms WHERE giver_id = $2 AND recipient_id = $3) LIMIT 1
   ), c AS (
     INSERT INTO conversations (id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at)
     SELECT $1, $2, $3, $4, 'anon:' || k.id, $6, $7, $7 FROM k
     ON CONFLICT (pair_key) DO UPDATE SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
     RETURNING id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at
   )`;
/** PostgreSQL: the conversation keyed $5 (OPEN), or the anonymous one, then the gift message (and the notification) in it. */
const postgresStatements = (notice: boolean, alert: boolean) => ({
  keyed: sql(`WITH c AS (${OPEN})${afterConversation(notice, alert)}`),
  anonymous: sql(OPEN_ANONYMOUS + afterConversation(notice, alert)),
});
const POSTGRES = {
  plain: postgresStatements(false, false),
  'plain+alert': postgresStatements(false, true),
  notice: postgresStatements(true, false),
  'notice+alert': postgresStatements(true, true),
};
