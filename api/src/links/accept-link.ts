import { deliverGift } from '../commands/deliver-gift.js';
import { giftNoteText, recordGiftNote } from '../conversations/gift-note.js';
import { badRequest, forbidden, gone } from '../errors.js';
import { withIdempotency, type IdempotentAnswer } from '../http/idempotency.js';
import { escrowAccount } from '../money/ledger.js';
import { publishAfterCommit, type RealtimeEvent } from '../realtime/publisher.js';
import type { User } from '../users/entity.js';
import { canRespondTo } from './policy.js';
import { LINK_GONE } from '../../contract/texts.js';
import { type AcceptLinkResponse } from '../../contract/links.js';
import { currentLink, findCreator } from './service.js';
import { linkGift, takeUse, type LinkDeps } from './use.js';

/**
 * Uses a give link: the responder receives one use from escrow (currency) or the item is ordered
 * for them. The responder's note, if any, follows the gift in the named thread of the two, by name.
 */
export async function acceptLink(
  deps: LinkDeps,
  responder: User,
  input: { creatorUsername: string; note?: string },
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<AcceptLinkResponse>> {
  const { creatorUsername } = input;
  const note = giftNoteText(input.note);
  const creator = await findCreator(deps.db, creatorUsername);
  if (!canRespondTo(responder, { creatorId: creator.id })) throw forbidden('You cannot use your own link.');
  let events: RealtimeEvent[] = [];
  const answer = await withIdempotency(
    deps.db,
    // Replayable: the work's only effect outside the database is `events`, set (not added to) by its last run.
    {
      key: idempotencyKey,
      userId: responder.id,
      scope: 'links.accept',
      input: note ? { creatorUsername, note } : creatorUsername,
      replayable: true,
    },
    async (em) => {
      const link = await currentLink(em, creator.id);
      if (link.giveOrReceive !== 'give') throw badRequest('This link asks for gifts: use Give instead.', 'not_a_give_link');
      const {
        transferId,
        conversation,
        message,
        events: made,
      } = await deliverGift(
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
      events = note ? [...made, (await recordGiftNote(em, conversation, responder.id, note)).event] : made;
      return { status: 200, body: { conversationId: conversation.id, newMessage: { _id: message.id, text: message.text } } };
    },
  );
  return publishAfterCommit(deps.realtime, answer, events);
}
