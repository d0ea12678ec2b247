/**
 * Identities: the subject of every effect. A person has one named identity, and towards each
 * recipient they gave to anonymously one persona (the pseudonym of `anonymous_pseudonyms`, the key
 * of that anonymous thread). Every rule that acts on someone says which identity it acts on:
 *
 * - a conversation is between two identities, and its key (`pairKey`) names them: `named:<a>:<b>`
 *   for two named identities, `anon:<pseudonym>` for a persona and the named recipient;
 * - a block is made in one conversation and stops that conversation's other identity only;
 * - a report is about the other identity of one conversation (moderators see the person);
 * - closing an account erases the named identity and retires its personas: what the other side
 *   of an anonymous thread sees does not change;
 * - presence, profiles and named threads are about named identities: the code that answers them
 *   reads the named conversation (`namedPairKey`) and never persona rows;
 * - card payments are limited and locked per identity that pays (`payingIdentity`): a gift's
 *   persona for a one-step gift, else the named person; per card and per client they are not.
 *
 * The only readers of persona rows are the persona's own owner (their inbox, messages, export),
 * the gift that uses the persona (`conversationKey`, `anonymousPairKeySql` in identity/store.ts) and the rules of the
 * one anonymous conversation (its messages, blocks and reports). Pure: no database, no Node.
 */
import type { Conversation } from '../conversations/entity.js';

/** The key of the named conversation of two people, in either order. */
export const namedPairKey = (a: string, b: string): string => {
  const [low, high] = [a, b].sort();
  return `named:${low}:${high}`;
};

/** True when `userId` acts in `c` as an anonymous persona (the giver who opened it anonymously). */
export const isPersonaIn = (c: Pick<Conversation, 'initiatorId' | 'initiatorAnonymous'>, userId: string): boolean =>
  c.initiatorAnonymous && c.initiatorId === userId;

/**
 * The identity a card payment is made as, as the card guard counts it: the persona a gift paid
 * with it goes out as (giver towards recipient), or the named person for every other payment.
 */
export const payingIdentity = (userId: string, anonymousTo?: string): string =>
  anonymousTo === undefined ? userId : `persona:${userId}:${anonymousTo}`;
