import crypto from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import { ConversationEntity } from '../conversations/entity.js';
import { canSeeMember } from '../conversations/policy.js';
import type { Database } from '../db/index.js';
import { run, sql } from '../db/sql.js';
import { forbidden, isUniqueViolation, notFound, type AppError } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { BlockEntity, type Block } from './entity.js';
import { canBlockFrom, canReach } from './policy.js';
import type { BlockView } from './schemas.js';

/** SQL that is true when `blocker` (an expression) has blocked `blocked`, for a statement that reads it along with what it is about. */
export const blockedSql = (blocker: string, blocked: string) =>
  `EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${blocker} AND blocked_id = ${blocked})`;
const BLOCKED = sql(`SELECT ${blockedSql('$1', '$2')} AS blocked`);

/**
 * True when `blockerId` has blocked `blockedId` (from any of their conversations), read in `em`'s
 * transaction with a prepared statement (every gift asks: issue 15).
 */
export async function isBlocked(em: EntityManager, { blockerId, blockedId }: { blockerId: string; blockedId: string }): Promise<boolean> {
  if (blockerId === blockedId) return false;
  return Boolean((await run<{ blocked: boolean | number }>(em, BLOCKED, [blockerId, blockedId])).rows[0].blocked);
}

/**
 * Refuses, with `refusal`, an `actorId` that `targetId` has blocked (`canReach`). Every way of
 * reaching someone asks this, each with the neutral answer it gives anyone else it refuses, so the
 * blocked person cannot tell that they were blocked.
 */
export async function assertCanReach(em: EntityManager, actorId: string, targetId: string, refusal: () => AppError): Promise<void> {
  checkReach(actorId, targetId, await isBlocked(em, { blockerId: targetId, blockedId: actorId }), refusal);
}

/** `assertCanReach` when the caller has read already (`blockedSql`) whether `targetId` blocked `actorId`. */
export function checkReach(actorId: string, targetId: string, blocked: boolean, refusal: () => AppError): void {
  if (!canReach(actorId, targetId, blocked ? [{ blockerId: targetId, blockedId: actorId }] : [])) throw refusal();
}

async function present(em: EntityManager, blocks: Block[]): Promise<BlockView[]> {
  if (blocks.length === 0) return [];
  const conversations = new Map(
    (await em.findBy(ConversationEntity, { id: In([...new Set(blocks.map((b) => b.conversationId))]) })).map((c) => [c.id, c]),
  );
  const users = new Map((await em.findBy(UserEntity, { id: In([...new Set(blocks.map((b) => b.blockedId))]) })).map((u) => [u.id, u]));
  return blocks.map((b) => {
    const c = conversations.get(b.conversationId);
    const user = users.get(b.blockedId);
    // Named only where the conversation it was made from names them to the blocker.
    const named = c !== undefined && user !== undefined && canSeeMember(c, b.blockerId, b.blockedId);
    return {
      _id: b.id,
      anonymous: !named,
      displayName: named ? user.displayName : null,
      username: named ? user.username : null,
      conversationId: b.conversationId,
      conversationStartedAt: (c?.createdAt ?? b.createdAt).toISOString(),
      createdAt: b.createdAt.toISOString(),
    };
  });
}

/** The user's blocks, newest first. */
export async function listBlocks(db: Database, blockerId: string): Promise<BlockView[]> {
  const blocks = await db.manager.find(BlockEntity, { where: { blockerId }, order: { createdAt: 'DESC', id: 'ASC' }, take: 500 });
  return present(db.manager, blocks);
}

/**
 * Blocks the other member of a conversation the user is in, resolved here from the conversation.
 * Blocking from the same conversation again answers the same block; a block from another
 * conversation is a block of its own (see the 1763871800000 migration), whoever it names.
 */
export async function blockFromConversation(
  db: Database,
  blockerId: string,
  conversationId: string,
): Promise<{ created: boolean; block: BlockView }> {
  return db.transaction(async (em) => {
    const conversation = await em.findOneBy(ConversationEntity, { id: conversationId });
    if (!conversation) throw notFound('Conversation not found');
    if (!canBlockFrom(blockerId, conversation)) throw forbidden();
    const existing = await em.findOneBy(BlockEntity, { blockerId, conversationId });
    if (existing) return { created: false, block: (await present(em, [existing]))[0]! };
    const block: Block = {
      id: crypto.randomUUID(),
      blockerId,
      blockedId: conversation.initiatorId === blockerId ? conversation.responderId : conversation.initiatorId,
      conversationId,
      createdAt: new Date(),
    };
    try {
      await em.insert(BlockEntity, { ...block });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await em.findOneByOrFail(BlockEntity, { blockerId, conversationId });
      return { created: false, block: (await present(em, [raced]))[0]! };
    }
    return { created: true, block: (await present(em, [block]))[0]! };
  });
}

/** Removes one of the user's blocks; someone else's block is 'not found' (no hint that it exists). */
export async function unblock(db: Database, blockerId: string, blockId: string): Promise<void> {
  const removed = await db.transaction((em) => em.delete(BlockEntity, { id: blockId, blockerId }));
  if (!removed.affected) throw notFound('Block not found');
}
