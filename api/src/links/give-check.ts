/**
 * Every refusal a give to a receive link can meet that is known before it runs: an unknown link,
 * your own, a give link, an amount out of bounds, a closed or expired link, a goal reached, a use
 * already taken, a creator who blocked the giver (answered as a closed link), a creator who paused gifts. A card paying for
 * the gift is touched only after these pass; the give checks each again where it lands.
 */
import type { Database } from '../db/index.js';
import { badRequest, gone, notFound } from '../errors.js';
import { INVALID_AMOUNT, ALREADY_USED, LINK_GONE, LINK_NOT_FOUND, OWN_POST } from '../../contract/texts.js';
import { afterUse, isGiveAmountCents, isGroupGift, leftToGive } from '../../contract/link-use.js';
import type { User } from '../users/entity.js';
import { giftsPaused } from '../users/pause.js';
import { LinkResponseEntity, type Link } from './entity.js';
import { canRespondTo } from './policy.js';
import { isOpen } from './service.js';
import { linkForGiver } from './store.js';
import { overGoalError } from './use.js';

export interface GivePlan {
  link: Link;
  giverBlocked: boolean;
  amountCents: number;
}

/** The rules read from the link alone (the give's route runs these before its unit of work). */
export async function planGive(db: Database, giver: Pick<User, 'id'>, input: { postId: string; amountCents?: number }): Promise<GivePlan> {
  const found = await linkForGiver(db, input.postId, giver.id);
  if (!found) throw notFound(LINK_NOT_FOUND);
  const { link, giverBlocked, creatorPaused } = found;
  if (!canRespondTo(giver, link)) throw badRequest(OWN_POST, 'own_post');
  if (link.giveOrReceive !== 'receive') throw badRequest('This link gives gifts: use Accept instead.', 'not_a_receive_link');
  // Read with the link, just before the give's transaction: no statement more per give.
  if (creatorPaused) throw giftsPaused();
  const amountCents = link.type === 'item' ? link.amountCents : input.amountCents;
  if (amountCents === undefined) throw badRequest(INVALID_AMOUNT, 'validation_failed');
  if (link.type === 'currency' && !isGiveAmountCents(amountCents, leftToGive(link))) throw badRequest(INVALID_AMOUNT, 'validation_failed');
  return { link, giverBlocked, amountCents };
}

/** The rules a give checks again in its transaction, here before anything is charged. */
export function checkLanding(plan: GivePlan, now: Date): void {
  if (!isOpen(plan.link, now)) throw gone(LINK_GONE);
  if (isGroupGift(plan.link) && !afterUse(plan.link, plan.amountCents)) throw overGoalError(plan.link);
}

/** All of them, before a card is authorised for the gift: answers what the gift will cost, and to whom it goes. */
export async function checkGive(
  db: Database,
  giver: Pick<User, 'id'>,
  input: { postId: string; amountCents?: number },
): Promise<{ costCents: number; recipientId: string }> {
  const plan = await planGive(db, giver, input);
  checkLanding(plan, new Date());
  if (plan.giverBlocked) throw gone(LINK_GONE);
  if (await db.manager.existsBy(LinkResponseEntity, { linkId: plan.link.id, responderId: giver.id }))
    throw badRequest(ALREADY_USED, 'already_used');
  return { costCents: plan.amountCents, recipientId: plan.link.creatorId };
}
