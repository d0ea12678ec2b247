import type { ConversationView, MessageView } from '../../contract/conversations.js';
import { youGave } from '../../contract/texts.js';
import { isSubscribed } from '../users/policy.js';
import type { User } from '../users/entity.js';
import type { Conversation, Message } from './entity.js';
import { isPersonaIn } from '../identity/identity.js';
import { canSeeMember } from './policy.js';

export type { ConversationView, MessageView } from '../../contract/conversations.js';

/** How an anonymous giver appears to the person they gave to. */
export const ANONYMOUS = 'anonymous';

const shownId = (c: Conversation, viewerId: string, userId: string) => (canSeeMember(c, viewerId, userId) ? userId : ANONYMOUS);
const otherMember = (c: Conversation, userId: string) => (c.initiatorId === userId ? c.responderId : c.initiatorId);

/**
 * A message's text as `viewerId` reads it. A gift message's stored text is written for its
 * recipient ('You received a gift of $5.00!'); its giver reads what they gave ('You gave $5.00',
 * 'You gave <item title>'), from the gift card (a currency card's title is the amount given).
 * The recipient's view is the stored text: nothing about the giver is added.
 */
export function messageTextFor(viewerId: string, m: Pick<Message, 'senderId' | 'text' | 'messageType' | 'giftTitle'>): string {
  return m.messageType === 'gift' && m.senderId === viewerId ? youGave(m.giftTitle) : m.text;
}

export function presentMessage(c: Conversation, viewerId: string, m: Message): MessageView {
  return {
    _id: m.id,
    conversationId: m.conversationId,
    senderUserId: shownId(c, viewerId, m.senderId),
    mine: m.senderId === viewerId,
    text: messageTextFor(viewerId, m),
    messageType: m.messageType,
    giftDetails: m.messageType === 'gift' ? { title: m.giftTitle, giftType: m.giftType, img: m.giftImg } : null,
    // When a persona read is never shown to the one it writes to: it would time the giver's activity.
    read: m.senderId === viewerId && isPersonaIn(c, otherMember(c, viewerId)) ? false : m.read,
    createdAt: m.createdAt.toISOString(),
    seq: m.seq ?? 0, // null only for a row inserted without a number, before its COMMIT (PostgreSQL)
  };
}

export function presentConversation(
  c: Conversation,
  viewerId: string,
  other: Pick<User, 'id' | 'username' | 'displayName' | 'profilePicture' | 'subscribedUntil'> | null,
  lastMessage: Message | null,
  unreadCount: number,
  now: Date = new Date(),
): ConversationView {
  const otherId = c.initiatorId === viewerId ? c.responderId : c.initiatorId;
  const anonymous = !canSeeMember(c, viewerId, otherId);
  return {
    _id: c.id,
    initiatorUserId: shownId(c, viewerId, c.initiatorId),
    responderUserId: c.responderId,
    otherUser:
      anonymous || !other
        ? { _id: null, username: 'Anonymous', displayName: 'Anonymous', profilePicture: null, anonymous: true }
        : {
            _id: other.id,
            username: other.username,
            displayName: other.displayName,
            profilePicture: other.profilePicture,
            anonymous: false,
            isSubscribed: isSubscribed(other, now),
          },
    // The viewer is hidden from the other member: the giver of an anonymous conversation.
    youAreAnonymous: !canSeeMember(c, otherId, viewerId),
    lastMessage: lastMessage ? presentMessage(c, viewerId, lastMessage) : null,
    unreadCount,
  };
}
