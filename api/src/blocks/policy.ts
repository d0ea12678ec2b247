import type { Block } from './entity.js';

/**
 * Who may reach whom, written once. A block stops its blocked person reaching its blocker in every
 * way (messages over HTTP and the socket, the blocker's links, their wishlist, their notifications);
 * it never limits the blocker, which would tell them, in another thread of the same two people,
 * that an anonymous giver they blocked is that person. Pure: no database, no Node.
 */

type BlockPair = Pick<Block, 'blockerId' | 'blockedId'>;

/** True unless `targetId` has blocked `actorId` (`blocks`: any blocks between the two). */
export const canReach = (actorId: string, targetId: string, blocks: readonly BlockPair[]): boolean =>
  actorId === targetId || !blocks.some((b) => b.blockerId === targetId && b.blockedId === actorId);

/** A member of a conversation may block its other member from it; no one else may. */
export const canBlockFrom = (viewerId: string, c: { initiatorId: string; responderId: string }): boolean =>
  (c.initiatorId === viewerId || c.responderId === viewerId) && c.initiatorId !== c.responderId;
