import type { EntityManager } from 'typeorm';
import { ITEM_UNAVAILABLE, LINK_GONE } from '../../contract/texts.js';
import { assertCanReach, checkReach } from '../blocks/service.js';
import { forbidden, gone } from '../errors.js';
import type { Conversation, Message } from '../conversations/entity.js';
import { recordGiftMessage, type GiftDetails, type GiverIdentity } from '../conversations/gift-message.js';
import { transfer, type TransferInput } from '../money/ledger.js';
import { recordGiftReceipt } from '../money/gift-receipts-store.js';
import { noticeMade, type NewNotification } from '../notifications/service.js';
import type { Order } from '../orders/entity.js';
import { createGiftOrder } from '../orders/service.js';
import { afterCommit } from '../realtime/publisher.js';

/** One gift, as the three ways of giving (accepting a give link, giving to a receive link, buying from a wishlist) describe it. */
export interface Gift {
  giverId: string;
  recipientId: string;
  /**
   * Who the recipient sees as the giver: `anonymous` for a gift to a receive link or from a
   * wishlist, `named` for accepting someone's give link (the recipient knows who made it).
   */
  identity: GiverIdentity;
  /** Cents the gift is worth: what moves, and what the notification tells. */
  amountCents: number;
  /** How the money moves: out of the giver's balance or the link's escrow, to the recipient or the marketplace. */
  payment: Pick<TransferInput, 'from' | 'to' | 'kind' | 'actorUserId' | 'insufficient'>;
  /** The gift message's text, which the notification repeats. */
  text: string;
  /** The gift card in the conversation; its picture is the notification's too. */
  card: GiftDetails;
  /**
   * Whether the other party (the recipient; the giver, when the recipient acts) has blocked whoever
   * acts in the conversation this gift goes to, when the caller has read it already, with the link
   * (blocks/store.ts `blockedSql`): one statement fewer per give. Left out, it is read here.
   */
  blocked?: boolean;
  /** What the notification says the gift came through. */
  source: Pick<NewNotification, 'type' | 'giveOrReceive' | 'linkOrWishlist' | 'relatedPostId' | 'itemTitle' | 'itemId'>;
}

export interface DeliveredGift<U = undefined> {
  /** What the caller's `paysFor` answered (a link's use). */
  paidFor: U;
  /** The ledger transfer that paid for the gift, for the caller's own record of it. */
  transferId: string;
  conversation: Conversation;
  message: Message;
  /** For an item gift, the order made for its recipient (placed, or waiting for their address). */
  order: Order | null;
}

/**
 * Delivers a gift inside the caller's transaction (`em`), the one way every gift path does it:
 * the money moves through the ledger, the gift message opens (or reuses) the conversation the
 * giver's identity keys, and the recipient gets a notification. The message and the notification
 * are published once the caller's transaction commits (`afterCommit`), never if it rolls back and
 * not for an idempotent replay.
 * An item gift also becomes an order for its recipient (orders/service.ts): placed when they have
 * a shipping address, else waiting for one, with a notification asking them for it.
 */
export async function deliverGift<U = undefined>(
  em: EntityManager,
  gift: Gift,
  paysFor?: (transferId: string) => Promise<U>,
): Promise<DeliveredGift<U>> {
  // Whoever acts (the giver; the recipient accepting a give link) cannot reach someone who blocked
  // them in the thread this gift goes to: the answer is the one a closed link or an unavailable item
  // gets (blocks/policy.ts). A block in the other thread of the two is another identity's.
  const actorId = gift.payment.actorUserId ?? gift.giverId;
  const otherParty = actorId === gift.recipientId ? gift.giverId : gift.recipientId;
  const refusal = () => (gift.source.linkOrWishlist === 'link' ? gone(LINK_GONE) : forbidden(ITEM_UNAVAILABLE));
  if (gift.blocked === undefined) await assertCanReach(em, actorId, gift, refusal);
  else checkReach(actorId, otherParty, gift.blocked, refusal);
  // The payment, and what it pays for (the caller's `paysFor`: a link's use, which records the
  // payment's transfer), are written with the gift message, after it: the members are locked first,
  // as every writer of messages locks them (conversations/member-locks-store.ts).
  const {
    conversation,
    message,
    notification,
    alongside: [paid, paidFor],
  } = await recordGiftMessage(
    em,
    // The recipient hears of it outside the app, unless they made it themselves (accepting a give link).
    {
      giverId: gift.giverId,
      recipientId: gift.recipientId,
      identity: gift.identity,
      text: gift.text,
      gift: gift.card,
      alert: actorId !== gift.recipientId,
    },
    {
      ...gift.source,
      senderId: gift.giverId,
      receiverId: gift.recipientId,
      amountCents: gift.amountCents,
      message: gift.text,
      itemPhoto: gift.card.img,
    },
    (transferId) =>
      [
        transfer(em, { ...gift.payment, id: transferId, amountCents: gift.amountCents, identity: gift.identity }),
        paysFor ? paysFor(transferId) : Promise.resolve(undefined as U),
      ] as const,
  );
  // A gift of money to a person is kept with its message, so it can be returned or reversed in its thread.
  if (gift.payment.to.startsWith('user:'))
    await recordGiftReceipt(em, {
      transferId: paid.transferId,
      messageId: message.id,
      conversationId: conversation.id,
      giverId: gift.giverId,
      recipientId: gift.recipientId,
      amountCents: gift.amountCents,
      outcome: null,
      createdAt: message.createdAt,
    });
  const ordered =
    gift.card.giftType === 'item'
      ? await createGiftOrder(em, {
          giverId: gift.giverId,
          recipientId: gift.recipientId,
          item: { itemId: gift.source.itemId, title: gift.source.itemTitle ?? gift.card.title, photo: gift.card.img },
          amountCents: gift.amountCents,
          transferId: paid.transferId,
          conversationId: conversation.id,
          source: gift.source.linkOrWishlist,
          notifiedAt: notification.createdAt,
        })
      : null;
  afterCommit({ type: 'message', conversation, message });
  noticeMade(notification);
  if (ordered?.ask) noticeMade(ordered.ask, 'order_address');
  return { transferId: paid.transferId, conversation, message, order: ordered?.order ?? null, paidFor };
}
