import type { EntityManager } from 'typeorm';
import { isPostgres, run, sql } from '../db/sql.js';
import { lockMembersSql } from './member-locks-store.js';
import type { Message } from './entity.js';

/**
 * The statements of a gift's note (conversations/gift-note.ts has its rules): a normal message
 * written in the gift's transaction, after the gift message, and made its conversation's last.
 * The gift's statement has locked the two members already (gift-store.ts), so on PostgreSQL the
 * note's number follows the gift's in commit order as any message's does.
 */
export async function writeNoteMessage(em: EntityManager, message: Message): Promise<number> {
  const values = [message.id, message.conversationId, message.senderId, message.text, message.createdAt];
  if (isPostgres(em)) return Number((await run<{ seq: string }>(em, POSTGRES_NOTE, values)).rows[0].seq);
  const { rows } = await run<{ value: number }>(em, TAKE_SEQ, []);
  const seq = Number(rows[0].value);
  await run(em, SQLITE_NOTE, [...values, seq]);
  await run(em, LAST_MESSAGE, [message.id, message.createdAt, message.conversationId]);
  return seq;
}

const TAKE_SEQ = sql("UPDATE counters SET value = value + 1 WHERE name = 'message_seq' RETURNING value");
const SQLITE_NOTE = sql(
  `INSERT INTO messages (id, conversation_id, sender_id, text, message_type, gift_title, gift_type, gift_img, read, created_at, seq)
   VALUES ($1, $2, $3, $4, 'normal', NULL, NULL, NULL, false, $5, $6)`,
);
const LAST_MESSAGE = sql('UPDATE conversations SET last_message_id = $1, last_message_at = $2 WHERE id = $3');
/** PostgreSQL: the note $1 in conversation $2 by $3 ($4 its text, at $5), numbered from the sequence, and made the last message; one round trip. */
const POSTGRES_NOTE = sql(
  `WITH m AS (
     INSERT INTO messages (id, conversation_id, sender_id, text, message_type, read, created_at, seq)
     VALUES ($1, $2, $3, $4, 'normal', false, $5, nextval('message_seq_numbers'))
     RETURNING seq
   ), c AS (
     UPDATE conversations SET last_message_id = $1, last_message_at = $5 WHERE id = $2
   )
   SELECT seq FROM m`,
);

/** PostgreSQL: the two members of a thread, locked to the commit before a message there takes a number. */
const LOCK_TWO = sql(lockMembersSql('SELECT $1::varchar AS x UNION SELECT $2::varchar'));

/** A message written outside a gift's statement (a notice about a gift): its members locked first, as every writer does. */
export async function writeThreadMessage(em: EntityManager, message: Message, members: [string, string]): Promise<number> {
  if (isPostgres(em)) await run(em, LOCK_TWO, members);
  return writeNoteMessage(em, message);
}
