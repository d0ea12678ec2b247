import { deliverGift } from '../commands/deliver-gift.js';
import { giftNoteText, recordGiftNote } from '../conversations/gift-note.js';
import { appendedRowId } from '../db/ids.js';
import { together } from '../db/together.js';
import type { EntityManager } from 'typeorm';
import { centsToDollars } from '../../contract/money.js';
import { withIdempotency, type IdempotentAnswer } from '../http/idempotency.js';
import { insufficientFunds, userAccount } from '../money/ledger.js';
import { publishAfterCommit, type RealtimeEvent } from '../realtime/publisher.js';
import type { User } from '../users/entity.js';
import { type GiveResponse } from '../../contract/links.js';
import { checkLanding, planGive } from './give-check.js';
import { linkGift, takeUse, type LinkDeps } from './use.js';

/**
 * Gives to a receive link in one atomic call: the giver pays (a chosen amount for currency, the
 * item's total for an item), the use is recorded, the gift message and notification are made,
 * and the giver's note, if any, follows the gift in the thread from the same persona. Nothing moves
 * unless all of it succeeds.
 */
export async function giveToLink(
  deps: LinkDeps,
  giver: User,
  input: { postId: string; amountCents?: number; note?: string; authorisation?: string },
  idempotencyKey: string | undefined,
  first?: (em: EntityManager) => Promise<void>,
): Promise<IdempotentAnswer<GiveResponse>> {
  const note = giftNoteText(input.note);
  const plan = await planGive(deps.db, giver, input);
  const { link, giverBlocked, amountCents } = plan;
  let events: RealtimeEvent[] = [];
  // Replayable: the work's only effect outside the database is `events`, set (not added to) by its last run.
  const request = {
    key: idempotencyKey,
    userId: giver.id,
    scope: 'links.give',
    input: {
      postId: input.postId,
      amountCents: input.amountCents,
      ...(note ? { note } : {}),
      ...(input.authorisation ? { authorisation: input.authorisation } : {}),
    },
    replayable: true,
  };
  const answer = await withIdempotency(deps.db, request, async (em) => {
    // Checked on the link as read above; the use itself (takeUse) checks it again in one conditional update.
    checkLanding(plan, new Date());
    // A card authorisation paying for it becomes the giver's deposit in this same transaction.
    if (first) await first(em);
    const gift = linkGift(
      link,
      amountCents,
      { giverId: giver.id, recipientId: link.creatorId, identity: 'anonymous' },
      { from: userAccount(giver.id), currencyKind: 'give', actorUserId: giver.id, insufficient: insufficientFunds },
    );
    // The gift and the use are started together (on PostgreSQL one write: the members, the message,
    // the payment, the use, in this order, which is the order they lock rows in); the use records
    // the payment's id.
    const transferId = appendedRowId();
    const [{ conversation, events: made }, giveId] = await together(
      deliverGift(em, { ...gift, payment: { ...gift.payment, id: transferId }, blocked: giverBlocked }),
      takeUse(em, link, giver.id, 'give', amountCents, transferId),
    );
    events = note ? [...made, (await recordGiftNote(em, conversation, giver.id, note)).event] : made;
    return {
      status: 201,
      body: {
        give: { _id: giveId, type: link.type, amount: centsToDollars(amountCents), postId: link.id },
        conversationId: conversation.id,
      },
    };
  });
  return publishAfterCommit(deps.realtime, answer, events);
}
