import type { Conversation } from './entity.js';

/**
 * Who may learn who someone is, written once. A gift's giver is anonymous to its recipient in the
 * conversation that gift opened; everyone else in a conversation is named. The presenters (HTTP
 * and socket) and presence (`canSeePresence` in service.ts, the same rule as a query) ask these
 * rules; nobody re-derives them inline. Pure: the renderer's type check reads this file too.
 */

/** True when `viewerId` may see who `userId` is in conversation `c`. */
export const canSeeMember = (c: Conversation, viewerId: string, userId: string): boolean =>
  !(c.initiatorAnonymous && userId === c.initiatorId && viewerId !== c.initiatorId);
