import { z } from 'zod';
import { idSchema, isoTime } from './common.js';

/** `POST /api/blocks`: block the other member of a conversation the caller is in. */
export const BlockBody = z.object({ conversationId: idSchema });

/** `DELETE /api/blocks/{id}`. */
export const BlockParams = z.object({ id: idSchema });

/**
 * One block, as its blocker sees it. Never the blocked person's id. An anonymous giver has no name,
 * username or picture at all: the list shows 'Anonymous giver (conversation of {date})' from
 * `conversationStartedAt` (`blockedAnonymous`, texts.ts).
 */
export const BlockView = z.object({
  _id: z.string(),
  anonymous: z.boolean(),
  /** A named person's display name; null for an anonymous giver. */
  displayName: z.string().nullable(),
  /** A named person's username; null for an anonymous giver. */
  username: z.string().nullable(),
  /** The blocker's own conversation it was made from (theirs to see; it names no one). */
  conversationId: z.string(),
  conversationStartedAt: isoTime,
  createdAt: isoTime,
});
export type BlockView = z.infer<typeof BlockView>;

/** `POST /api/blocks`' answer: the block as the list shows it, nothing more. */
export const BlockResponse = z.object({ block: BlockView });
export type BlockResponse = z.infer<typeof BlockResponse>;
