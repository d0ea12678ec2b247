import crypto from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import { ConversationEntity } from '../conversations/entity.js';
import { canReach, canSeeMember } from '../conversations/policy.js';
import type { Database } from '../db/index.js';
import { namedPairKey } from '../identity/identity.js';
import { forbidden, isUniqueViolation, notFound, type AppError } from '../errors.js';
import { UserEntity } from '../users/entity.js';
import { BlockEntity, type Block } from './entity.js';
import { canBlockFrom } from './policy.js';
import type { BlockView } from '../../contract/blocks.js';
import { hasBlockedNamed, hasBlockedPersona } from './store.js';

/** Who a gift or a message is between: the giver's identity (`named` or `anonymous`) towards the recipient. */
export interface Between {
  giverId: string;
  recipientId: string;
  identity: 'named' | 'anonymous';
}

/**
 * True when `blockerId` (one of the two) has blocked the other in the conversation `between` keys,
 * read in `em`'s transaction with a prepared statement.
 */
export async function isBlocked(em: EntityManager, blockerId: string, between: Between): Promise<boolean> {
  const { giverId, recipientId } = between;
  if (giverId === recipientId) return false;
  return between.identity === 'named'
    ? hasBlockedNamed(em, blockerId, namedPairKey(giverId, recipientId))
    : hasBlockedPersona(em, blockerId, giverId, recipientId);
}

/**
 * Refuses, with `refusal`, an `actorId` that the other of `between` has blocked in their conversation
 * (`canReach`). Every way of reaching someone asks this, each with the neutral answer it gives
 * anyone else it refuses, so the blocked identity cannot tell that it was blocked.
 */
export async function assertCanReach(em: EntityManager, actorId: string, between: Between, refusal: () => AppError): Promise<void> {
  const targetId = actorId === between.giverId ? between.recipientId : between.giverId;
  checkReach(actorId, targetId, await isBlocked(em, targetId, between), refusal);
}

/** `assertCanReach` when the caller has read already (`blockedSql`, blocks/store.ts) whether `targetId` blocked `actorId` in their conversation. */
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
