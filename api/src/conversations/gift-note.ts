import type { EntityManager } from 'typeorm';
import { MESSAGE_MAX_LENGTH } from '../../contract/limits.js';
import { NOTE_NOT_ALLOWED, NOTE_TOO_LONG } from '../../contract/texts.js';
import { badRequest } from '../errors.js';
import type { RealtimeEvent } from '../realtime/publisher.js';
import { containsAbuse } from '../text-filter.js';
import type { Conversation, Message } from './entity.js';
import { textMessageRow, withLastMessage } from './message-row.js';
import { writeNoteMessage, writeThreadMessage } from './note-store.js';

/**
 * A gift's note: what its writer (the giver; the responder, accepting a give link) typed with the
 * gift. It is their first message in the gift's thread, right after the gift message and in the
 * gift's transaction, written as the identity the gift goes out as (the persona for an anonymous
 * gift), so it reads, numbers and travels exactly as a message that identity sent would.
 */

/**
 * The note to write, or null for none (blank is none). Checked before anything moves: over the
 * message limit or with a slur it is a 400, as a message would be.
 */
export function giftNoteText(note: string | undefined): string | null {
  const text = note?.trim() ?? '';
  if (!text) return null;
  if (text.length > MESSAGE_MAX_LENGTH) throw badRequest(NOTE_TOO_LONG, 'validation_failed');
  if (containsAbuse(text)) throw badRequest(NOTE_NOT_ALLOWED, 'abusive_text');
  return text;
}

/**
 * Writes the note in `conversation` (the one the gift just went to) inside the gift's transaction,
 * and answers its event, to publish after the commit with the gift's: what `sendMessage` publishes
 * for a message from `senderId` there.
 */
export async function recordGiftNote(
  em: EntityManager,
  conversation: Conversation,
  senderId: string,
  text: string,
): Promise<{ message: Message; event: RealtimeEvent }> {
  const message = textMessageRow(conversation.id, senderId, text);
  message.seq = await writeNoteMessage(em, message);
  return { message, event: { type: 'message', conversation: withLastMessage(conversation, message), message } };
}

/**
 * A notice about a gift in its own thread (returned, reversed by the card's bank), written in the
 * caller's transaction as a message from `senderId`; answers its event, to publish after the commit.
 */
export async function recordThreadNotice(
  em: EntityManager,
  conversation: Conversation,
  senderId: string,
  text: string,
): Promise<{ message: Message; event: RealtimeEvent }> {
  const message = textMessageRow(conversation.id, senderId, text);
  message.seq = await writeThreadMessage(em, message, [conversation.initiatorId, conversation.responderId]);
  return { message, event: { type: 'message', conversation: withLastMessage(conversation, message), message } };
}
