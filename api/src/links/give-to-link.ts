import { deliverGift } from '../commands/deliver-gift.js';
import { giftNoteText, recordGiftNote } from '../conversations/gift-note.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { insufficientFunds, userAccount } from '../money/ledger.js';
import type { User } from '../users/entity.js';
import type { Link } from './entity.js';
import { checkLanding, type GivePlan } from './give-check.js';
import { linkGift, takeUse } from './use.js';

export interface GiveInput {
  postId: string;
  amountCents?: number;
  note?: string;
  /** A card authorisation paying for the give (the route lands it in the same transaction). */
  authorisation?: string;
}

export interface Give {
  giveId: string;
  link: Link;
  amountCents: number;
  conversationId: string;
}

/** The give as a repeat of its Idempotency-Key must ask for it: the note as it will be written. */
export function giveRequest(input: GiveInput): GiveInput {
  const note = giftNoteText(input.note);
  return {
    postId: input.postId,
    amountCents: input.amountCents,
    ...(note ? { note } : {}),
    ...(input.authorisation ? { authorisation: input.authorisation } : {}),
  };
}

/**
 * Gives to a receive link (planned by `planGive`) in the caller's unit of work: the giver pays (a
 * chosen amount for currency, the item's total for an item), the use is recorded, the gift message
 * and notification are made, and the giver's note, if any, follows the gift in the thread from the
 * same persona. Nothing moves unless all of it succeeds. May run again after a rollback: its only
 * effect outside the database is `afterCommit`.
 */
export async function giveToLink(uow: UnitOfWork, giver: User, plan: GivePlan, noteInput: string | undefined): Promise<Give> {
  const { em } = uow;
  const { link, giverBlocked, amountCents } = plan;
  const note = giftNoteText(noteInput);
  // Checked on the link as read before; the use itself (takeUse) checks it again in one conditional update.
  checkLanding(plan, new Date());
  const gift = linkGift(
    link,
    amountCents,
    { giverId: giver.id, recipientId: link.creatorId, identity: 'anonymous' },
    { from: userAccount(giver.id), currencyKind: 'give', actorUserId: giver.id, insufficient: insufficientFunds },
  );
  // The use is what the gift's payment pays for: written with the gift, it records the payment's transfer.
  const { conversation, paidFor: giveId } = await deliverGift(em, { ...gift, blocked: giverBlocked }, (transferId) =>
    takeUse(em, link, giver.id, 'give', amountCents, transferId),
  );
  if (note) uow.afterCommit((await recordGiftNote(em, conversation, giver.id, note)).event);
  return { giveId, link, amountCents, conversationId: conversation.id };
}
