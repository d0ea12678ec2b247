import { GIFT_NOT_FOUND, GIFT_NOT_RETURNABLE, GIFT_RETURNED, GIFT_SETTLED, ONLY_RECIPIENT_RETURNS } from '../../contract/texts.js';
import { ConversationEntity } from '../conversations/entity.js';
import { recordThreadNotice } from '../conversations/gift-note.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { receiptOfMessage, settleReceipt } from '../money/gift-receipts-store.js';
import { holdNow } from '../money/holds.js';
import { heldFromTransfer } from '../money/holds-store.js';
import { SYSTEM_UNCLAIMED, transfer, userAccount } from '../money/ledger.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { UserEntity } from '../users/entity.js';

export interface ReturnGiftInput {
  /** Who asks: only the gift's recipient may. */
  userId: string;
  conversationId: string;
  /** The gift's message in that thread. */
  messageId: string;
}

export interface ReturnedGift {
  amountCents: number;
}

/**
 * A recipient sends an anonymous gift back, once, while it is still on hold and unspent (in the
 * caller's unit of work): the very lots it brought go back to the giver with the release they had,
 * and the thread says 'This gift was returned.' from the recipient, so the giver's side reads it
 * and nothing names the giver. A giver who has closed their account is kept their money as any
 * refund to them is (`system:unclaimed`), so the recipient cannot tell.
 */
export async function returnGift(uow: UnitOfWork, input: ReturnGiftInput): Promise<ReturnedGift> {
  const { em } = uow;
  const receipt = await receiptOfMessage(em, input.messageId);
  const conversation = receipt && (await em.findOneBy(ConversationEntity, { id: receipt.conversationId }));
  const member = conversation && (conversation.initiatorId === input.userId || conversation.responderId === input.userId);
  if (!receipt || !conversation || receipt.conversationId !== input.conversationId || !member) throw notFound(GIFT_NOT_FOUND);
  if (receipt.recipientId !== input.userId) throw forbidden(ONLY_RECIPIENT_RETURNS);
  if (!conversation.initiatorAnonymous) throw badRequest(GIFT_NOT_RETURNABLE, 'gift_not_returnable');
  if (receipt.outcome) throw conflict(GIFT_SETTLED, 'gift_settled');
  const held = await heldFromTransfer(em, userAccount(input.userId), receipt.transferId, holdNow(em));
  if (held < receipt.amountCents) throw badRequest(GIFT_NOT_RETURNABLE, 'gift_not_returnable');
  if (!(await settleReceipt(em, receipt.transferId, 'returned'))) throw conflict(GIFT_SETTLED, 'gift_settled');
  const giver = await em.findOne(UserEntity, { where: { id: receipt.giverId }, select: { id: true, closedAt: true } });
  await transfer(em, {
    from: userAccount(input.userId),
    to: giver && !giver.closedAt ? userAccount(giver.id) : SYSTEM_UNCLAIMED,
    amountCents: receipt.amountCents,
    kind: 'return',
    actorUserId: input.userId,
    reference: receipt.transferId,
    only: { source: receipt.transferId },
    insufficient: () => badRequest(GIFT_NOT_RETURNABLE, 'gift_not_returnable'),
  });
  const notice = await recordThreadNotice(em, conversation, input.userId, GIFT_RETURNED);
  uow.afterCommit(notice.event);
  return { amountCents: receipt.amountCents };
}
