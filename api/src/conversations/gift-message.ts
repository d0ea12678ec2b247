import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { appendedRowId } from '../db/ids.js';
import { dateFrom, isPostgres, run, sql, type SqlValue } from '../db/sql.js';
import { AnonymousPseudonymEntity, type Conversation, type Message } from './entity.js';

/**
 * A gift's message (conversations/service.ts has the rest of the conversations): the conversation
 * a gift goes to, opened or reused inside the gift's transaction (commands/deliver-gift.ts), and
 * the gift card posted in it.
 */
const MESSAGE_SEQ = 'message_seq';

/**
 * The new message's number, inside the caller's transaction, so that numbers follow commit order
 * (see the 1763870500000 migration). SQLite has one writer: take the next one now. PostgreSQL: null,
 * its commit trigger assigns it; read it after the commit with `withCommittedSeq` (service.ts).
 */
async function newMessageSeq(em: EntityManager): Promise<number | null> {
  if (isPostgres(em)) return null;
  const { rows } = await run<{ value: number }>(em, TAKE_MESSAGE_SEQ, [MESSAGE_SEQ]);
  return Number(rows[0].value);
}
const TAKE_MESSAGE_SEQ = sql('UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value');

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
  const pairKey = () => conversationKey(em, input.identity, input.giverId, input.recipientId);
  const content: SqlValue[] = [message.text, message.giftTitle, message.giftType, message.giftImg];
  let rows: ConversationRow[] = [];
  if (!isPostgres(em)) rows = (await run<ConversationRow>(em, OPEN_CONVERSATION, opened(await pairKey()))).rows;
  else {
    // An anonymous gift's pseudonym goes in the same statement ($5: its id if it is new). A
    // pseudonym that a concurrent first gift of the same giver committed after the statement
    // began is not in its snapshot: then the statement does nothing, and the key is read as usual.
    if (input.identity === 'anonymous')
      rows = (await run<ConversationRow>(em, OPEN_ANONYMOUS_WITH_MESSAGE, [...opened(crypto.randomUUID()), ...content])).rows;
    if (!rows.length)
      rows = (await run<ConversationRow>(em, OPEN_CONVERSATION_WITH_MESSAGE, [...opened(await pairKey()), ...content])).rows;
  }
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
/**
 * PostgreSQL, an anonymous gift: the giver's pseudonym towards the recipient (made with id $5 if
 * there is none), the conversation it keys and the gift message, as OPEN_CONVERSATION_WITH_MESSAGE.
 * Answers no row when the pseudonym exists but is not in the statement's snapshot.
 */
const OPEN_ANONYMOUS_WITH_MESSAGE = sql(
  `WITH p AS (
     INSERT INTO anonymous_pseudonyms (id, giver_id, recipient_id, created_at) VALUES ($5, $2, $3, $7)
     ON CONFLICT DO NOTHING RETURNING id
   ), k AS (
     (SELECT id FROM p UNION ALL SELECT id FROM anonymous_pseudonyms WHERE giver_id = $2 AND recipient_id = $3) LIMIT 1
   ), c AS (
     INSERT INTO conversations (id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at)
     SELECT $1, $2, $3, $4, 'anon:' || k.id, $6, $7, $7 FROM k
     ON CONFLICT (pair_key) DO UPDATE SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
     RETURNING id, initiator_id, responder_id, initiator_anonymous, pair_key, last_message_id, last_message_at, created_at
   ), m AS (
     INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at)
     SELECT $6, c.id, $2, $8, 'gift', $9, $10, $11, false, $7 FROM c
   )
   SELECT * FROM c`,
);
