import type { EntityManager } from 'typeorm';
import { MessageEntity } from '../conversations/entity.js';

/**
 * Replaces with `text` the normal messages `userId` sent as their named self, in `em`'s
 * transaction; those their personas sent in anonymous threads they opened stay as they are.
 */
export async function replaceNamedMessages(em: EntityManager, userId: string, text: string): Promise<void> {
  await em
    .createQueryBuilder()
    .update(MessageEntity)
    .set({ text })
    .where("sender_id = :userId AND message_type = 'normal'", { userId })
    .andWhere('conversation_id NOT IN (SELECT id FROM conversations WHERE initiator_id = :userId AND initiator_anonymous = :persona)', {
      persona: true,
    })
    .execute();
}
