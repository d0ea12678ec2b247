import type { EntityManager } from 'typeorm';
import { appendedRowId } from '../db/ids.js';
import type { Notification } from '../notifications/entity.js';
import type { NewNotification } from '../notifications/service.js';
import { AnonymousPseudonymEntity, type Conversation, type Message } from './entity.js';
import { makePseudonym, writeGiftMessage, type WithGift } from './gift-store.js';
import { namedPairKey } from '../identity/identity.js';

/**
 * A gift's message (conversations/service.ts has the rest of the conversations): the conversation
 * a gift goes to, opened or reused inside the gift's transaction (commands/deliver-gift.ts), and
 * the gift card posted in it.
 */
export interface GiftDetails {
  title: string;
  giftType: 'item' | 'currency';
  img: string | null;
}

/**
 * Who the recipient of a gift sees as its giver: `anonymous` for a gift to a receive link or from
 * a wishlist (the giver is hidden), `named` where the recipient knows the giver by construction
 * (accepting someone's give link).
 */
export type GiverIdentity = 'anonymous' | 'named';

/**
 * The key of the one conversation a gift goes to. Named: the unordered pair, so gifts either way
 * between two people who know each other share a thread. Anonymous: the giver's pseudonym towards
 * this recipient (random, made once), so all of one giver's anonymous gifts to one person share a
 * thread that is never the named one, and nothing about it is derived from the two ids.
 */
export async function conversationKey(em: EntityManager, identity: GiverIdentity, giverId: string, recipientId: string): Promise<string> {
  if (identity === 'named') return namedPairKey(giverId, recipientId);
  // Made on the first gift (race-safe: insert or ignore), read on the next ones.
  const pseudonym =
    (await makePseudonym(em, giverId, recipientId)) ?? (await em.findOneByOrFail(AnonymousPseudonymEntity, { giverId, recipientId }));
  return `anon:${pseudonym.id}`;
}
interface GiftMessage {
  giverId: string;
  recipientId: string;
  identity: GiverIdentity;
  text: string;
  gift: GiftDetails;
  /** The recipient is told outside the app too (alerts/): not of a gift they made themselves. */
  alert?: boolean;
}
/** The recipient's notification of a gift, but for the conversation it points to. */
type Notice = Omit<NewNotification, 'conversationId'>;
interface RecordedGiftMessage<N> {
  conversation: Conversation;
  message: Message;
  notification: N;
}

/**
 * Opens (or reuses) the conversation for a gift and posts the gift message in it, inside the
 * caller's transaction; with `notice`, the recipient's notification of it too, pointing to the
 * conversation. An anonymous giver stays anonymous to the recipient in it; a named gift goes to the
 * named conversation of the two, never to an anonymous one.
 * What goes `alongside` the gift (its payment, what the payment pays for) is written with it, and
 * its results answered in order: the gift store sends it all in one go where it can (gift-store.ts).
 */
export async function recordGiftMessage(
  em: EntityManager,
  input: GiftMessage,
): Promise<RecordedGiftMessage<null> & { alongside: readonly [] }>;
export async function recordGiftMessage<A extends readonly unknown[] = []>(
  em: EntityManager,
  input: GiftMessage,
  notice: Notice,
  alongside?: WithGift<A>,
): Promise<RecordedGiftMessage<Notification> & { alongside: A }>;
export async function recordGiftMessage(
  em: EntityManager,
  input: GiftMessage,
  notice?: Notice,
  alongside: WithGift<readonly unknown[]> = () => [],
): Promise<RecordedGiftMessage<Notification | null> & { alongside: readonly unknown[] }> {
  const now = new Date();
  const message: Message = {
    id: appendedRowId(),
    conversationId: '',
    senderId: input.giverId,
    text: input.text,
    messageType: 'gift',
    giftTitle: input.gift.title,
    giftType: input.gift.giftType,
    giftImg: input.gift.img,
    read: false,
    createdAt: now,
    seq: null,
  };
  const pairKey = () => conversationKey(em, input.identity, input.giverId, input.recipientId);
  return writeGiftMessage(em, message, { ...input, pairKey }, notice, alongside);
}
