import type { EntityManager } from 'typeorm';
import { run, sql } from '../db/sql.js';
import { anonymousPairKeySql } from '../identity/store.js';

/**
 * SQL that is true when `blocker` (an expression) has blocked the other identity of the conversation
 * keyed `pairKey` (an expression: `namedPairKey`, `anonymousPairKeySql`), for a statement that reads
 * it along with what it is about. Blocks are per conversation: a block in one thread never reaches
 * the other thread of the same two people (identity/identity.ts).
 */
export const blockedSql = (blocker: string, pairKey: string) =>
  `EXISTS (SELECT 1 FROM blocks b JOIN conversations c ON c.id = b.conversation_id WHERE c.pair_key = ${pairKey} AND b.blocker_id = ${blocker})`;
const BLOCKED_NAMED = sql(`SELECT ${blockedSql('$1', '$2')} AS blocked`);
const BLOCKED_ANONYMOUS = sql(`SELECT ${blockedSql('$1', anonymousPairKeySql('$2', '$3'))} AS blocked`);

/** Whether `blockerId` has blocked the other member of the named conversation keyed `pairKey`, in `em`'s transaction. */
export async function hasBlockedNamed(em: EntityManager, blockerId: string, pairKey: string): Promise<boolean> {
  const { rows } = await run<{ blocked: boolean | number }>(em, BLOCKED_NAMED, [blockerId, pairKey]);
  return Boolean(rows[0].blocked);
}

/** Whether `blockerId` has blocked the other member of giver `giverId`'s anonymous conversation with `recipientId`, in `em`'s transaction. */
export async function hasBlockedPersona(em: EntityManager, blockerId: string, giverId: string, recipientId: string): Promise<boolean> {
  const { rows } = await run<{ blocked: boolean | number }>(em, BLOCKED_ANONYMOUS, [blockerId, giverId, recipientId]);
  return Boolean(rows[0].blocked);
}
