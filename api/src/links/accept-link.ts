import { deliverGift } from '../commands/deliver-gift.js';
import { giftNoteText, recordGiftNote } from '../conversations/gift-note.js';
import type { Message } from '../conversations/entity.js';
import { badRequest, forbidden, gone } from '../errors.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { escrowAccount } from '../money/ledger.js';
import type { Database } from '../db/index.js';
import type { User } from '../users/entity.js';
import { checkTakingGifts } from '../users/pause.js';
import { canRespondTo } from './policy.js';
import { LINK_GONE } from '../../contract/texts.js';
import { currentLink, findCreator } from './service.js';
import { linkGift, takeUse } from './use.js';

export interface AcceptInput {
  creatorUsername: string;
  note?: string;
}

export interface Accepted {
  conversationId: string;
  message: Message;
}

/** The accept as a repeat of its Idempotency-Key must ask for it: the note as it will be written. */
export function acceptRequest(input: AcceptInput): AcceptInput | string {
  const note = giftNoteText(input.note);
  return note ? { creatorUsername: input.creatorUsername, note } : input.creatorUsername;
}

/** The give link's creator, read before the unit of work: no one uses their own link. */
export async function acceptableCreator(db: Database, responder: User, creatorUsername: string): Promise<User> {
  const creator = await findCreator(db, creatorUsername);
  if (!canRespondTo(responder, { creatorId: creator.id })) throw forbidden('You cannot use your own link.');
  return creator;
}

/**
 * Uses a give link in the caller's unit of work: the responder receives one use from escrow
 * (currency) or the item is ordered for them. The responder's note, if any, follows the gift in
 * the named thread of the two, by name. May run again after a rollback: its only effect outside
 * the database is `afterCommit`.
 */
export async function acceptLink(uow: UnitOfWork, responder: User, creator: User, noteInput: string | undefined): Promise<Accepted> {
  const { em } = uow;
  const note = giftNoteText(noteInput);
  await checkTakingGifts(em, creator.id);
  const link = await currentLink(em, creator.id);
  if (link.giveOrReceive !== 'give') throw badRequest('This link asks for gifts: use Give instead.', 'not_a_give_link');
  const { transferId, conversation, message } = await deliverGift(
    em,
    linkGift(
      link,
      link.amountCents,
      // The responder knows who made the give link: this gift is named.
      { giverId: creator.id, recipientId: responder.id, identity: 'named' },
      { from: escrowAccount(link.id), currencyKind: 'release', actorUserId: responder.id, insufficient: () => gone(LINK_GONE) },
    ),
  );
  await takeUse(em, link, responder.id, 'accept', link.amountCents, transferId);
  // The responder writes the note, in the thread the gift went to (named: they know each other).
  if (note) uow.afterCommit((await recordGiftNote(em, conversation, responder.id, note)).event);
  return { conversationId: conversation.id, message };
}
