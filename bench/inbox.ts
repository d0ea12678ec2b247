import { recordGiftMessage } from '../api/src/conversations/gift-message.js';
import type { TestServer, TestUser } from '../api/src/testing/server.js';

/** Conversations of the inbox user: eight pages of the inbox. */
export const INBOX_CONVERSATIONS = 200;

/**
 * A user with INBOX_CONVERSATIONS conversations, each with two gift messages they have not read
 * (every fourth from an anonymous giver), written through the service as a gift writes them.
 */
export async function seedInbox(
  server: TestServer,
  buildManyUsers: (server: TestServer, count: number, prefix: string) => Promise<TestUser[]>,
): Promise<TestUser> {
  const [owner, ...others] = await buildManyUsers(server, INBOX_CONVERSATIONS + 1, 'inbox');
  const gift = { title: '$1.00', giftType: 'currency' as const, img: null };
  for (let i = 0; i < others.length; i += 50)
    await server.deps.db.transaction(async (em) => {
      for (const [j, other] of others.slice(i, i + 50).entries()) {
        const identity = (i + j) % 4 === 0 ? 'anonymous' : 'named';
        for (let k = 0; k < 2; k++)
          await recordGiftMessage(em, {
            giverId: other.user._id,
            recipientId: owner.user._id,
            identity,
            text: 'You received a gift of $1.00!',
            gift,
          });
      }
    });
  return owner;
}
