import type { Conversation } from '../conversations/entity.js';
import { canSeeConversation } from '../conversations/policy.js';

/** Only a member of a conversation may report it or one of its messages. */
export function canReport(userId: string, conversation: Conversation): boolean {
  return canSeeConversation(userId, conversation);
}

/** The account a member's report is about: the conversation's other member (never told to the reporter). */
export function reportedAccountOf(reporterId: string, conversation: Conversation): string {
  return conversation.initiatorId === reporterId ? conversation.responderId : conversation.initiatorId;
}
