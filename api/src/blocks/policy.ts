/**
 * Who may reach whom, written once. A block is made in one conversation and stops that
 * conversation's other identity (identity/identity.ts) reaching the blocker in every way that
 * identity has (messages over HTTP and the socket; for a persona, gifts to the blocker's links and
 * wishlist; for a named identity, accepting the blocker's give links). It never reaches the other
 * thread of the same two people, and it never limits the blocker: either would tell someone, by
 * name, what an anonymous identity did. `canReach` (conversations/policy.ts) reads the blocks. Pure.
 */

/** A member of a conversation may block its other member from it; no one else may. */
export const canBlockFrom = (viewerId: string, c: { initiatorId: string; responderId: string }): boolean =>
  (c.initiatorId === viewerId || c.responderId === viewerId) && c.initiatorId !== c.responderId;
