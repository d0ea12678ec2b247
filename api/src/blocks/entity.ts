import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/**
 * `blockerId` blocked the other member of `conversationId`, `blockedId`, whom the server resolved
 * from the conversation. `blockedId` never leaves the server towards the blocker.
 */
export interface Block {
  id: string;
  blockerId: string;
  blockedId: string;
  conversationId: string;
  createdAt: Date;
}

export const BlockEntity = new EntitySchema<Block>({
  name: 'Block',
  tableName: 'blocks',
  columns: {
    id: idColumn,
    blockerId: { ...refColumn(), name: 'blocker_id' },
    blockedId: { ...refColumn(), name: 'blocked_id' },
    conversationId: { ...refColumn(), name: 'conversation_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
