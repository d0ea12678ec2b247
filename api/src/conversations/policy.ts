import { isPersonaIn } from '../identity/identity.js';
import type { Conversation } from './entity.js';

/**
 * Who may read, write in and learn who is in a conversation, written once. A gift's giver is
 * anonymous to its recipient in the conversation that gift opened; everyone else in a
 * conversation is named. The presenters (HTTP and socket), the services and presence ask these
 * rules; nobody re-derives them inline. Pure: no database, no Node.
 */

type Members = Pick<Conversation, 'initiatorId' | 'responderId'>;

const isMember = (c: Members, userId: string): boolean => c.initiatorId === userId || c.responderId === userId;

/** True when `viewerId` may see who `userId` is in conversation `c`. */
export const canSeeMember = (c: Pick<Conversation, 'initiatorId' | 'initiatorAnonymous'>, viewerId: string, userId: string): boolean =>
  !(isPersonaIn(c, userId) && viewerId !== userId);

/** A conversation and its messages are for its two members. */
export const canSeeConversation = (viewerId: string, c: Members): boolean => isMember(c, viewerId);

/** A member may write in the conversation (over HTTP or the socket alike); no one else may. */
export const canMessage = (senderId: string, c: Members): boolean => isMember(c, senderId);

/**
 * `viewerId` may see whether `targetId` is online when it is themselves, or when `named`, the named
 * conversation of the two (found by its pair key alone, never by walking their conversations), names
 * the target to them. An anonymous thread is never looked at, so neither the answer nor its cost
 * can tell whether the target gave anonymously. Whether anything is shown is the two users' choice
 * (`showPresence`), asked after this.
 */
export const canSeePresence = (viewerId: string, targetId: string, named: Conversation | null): boolean =>
  viewerId === targetId ||
  (named !== null &&
    !named.initiatorAnonymous &&
    isMember(named, viewerId) &&
    isMember(named, targetId) &&
    canSeeMember(named, viewerId, targetId));

/** A block of one conversation: who blocked whom (blocks/entity.ts). */
interface BlockPair {
  blockerId: string;
  blockedId: string;
}

/** True unless `targetId` has blocked `actorId` (`blocks`: the blocks of the one conversation at stake). */
export const canReach = (actorId: string, targetId: string, blocks: readonly BlockPair[]): boolean =>
  actorId === targetId || !blocks.some((b) => b.blockerId === targetId && b.blockedId === actorId);
