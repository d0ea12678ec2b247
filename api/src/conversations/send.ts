import { MESSAGE_UNDELIVERABLE } from '../../contract/texts.js';
import { forbidden, notFound } from '../errors.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { checkMessageText } from '../text-filter.js';
import type { Publisher } from '../realtime/publisher.js';
import type { Database } from '../db/index.js';
import { canActAs } from '../users/policy.js';
import type { Conversation, Message } from './entity.js';
import { cachedConversation } from './members.js';
import { messageWriter } from './message-writer.js';
import { canMessage } from './policy.js';
import type { SendMessageInput } from '../../contract/conversations.js';
import { textMessageRow, withLastMessage } from './message-row.js';

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
  // Taken before the first await: this conversation's messages are written in the order sent.
  const writer = messageWriter(deps.db);
  const turn = writer.turn(input.conversationId);
  let written: Promise<Message | 'blocked'>;
  let conversation: Conversation;
  try {
    if (!canActAs({ id: senderId }, { userId: input.senderUserId })) throw forbidden();
    // Members never change: the per-process copy (members.ts) spares a read per message.
    const found = await cachedConversation(deps.db, input.conversationId);
    if (!found) throw notFound('Conversation not found');
    conversation = found;
    if (!canMessage(senderId, conversation)) throw forbidden();
    checkMessageText(input.text);
    // Sends per user, over HTTP and socket together (across processes with Redis): MESSAGE_RATE_LIMIT
    // a minute (60 by default), and a sixth of it in any 5 seconds (a burst of 10). One Redis round trip.
    const perMinute = deps.messagesPerMinute;
    await deps.limits.spendAll(
      [
        ['messages.send.burst', Math.max(1, Math.ceil(perMinute / 6)), 5],
        ['messages.send.minute', perMinute, 60],
      ],
      senderId,
      'You are sending messages too quickly.',
    );
    // Written with the other messages of this moment in one transaction (message-writer.ts), which
    // also refuses a sender the other member blocked (`canReach`, blocks/policy.ts) with the answer any
    // undeliverable message gets. Resolves after the commit, with the message's number.
    await turn.ready;
    const otherId = conversation.initiatorId === senderId ? conversation.responderId : conversation.initiatorId;
    written = writer.write({
      recipientId: otherId,
      row: textMessageRow(conversation.id, senderId, input.text),
    });
  } finally {
    turn.release();
  }
  const message = await written;
  if (message === 'blocked') throw forbidden(MESSAGE_UNDELIVERABLE);
  const updated = withLastMessage(conversation, message);
  deps.realtime.publish([{ type: 'message', conversation: updated, message, clientId: input.clientId }]);
  return { conversation: updated, message };
}
