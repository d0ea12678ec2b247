import { badRequest, forbidden, gone, notFound } from '../errors.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { escrowAccount } from '../money/ledger.js';
import { UserEntity, type User } from '../users/entity.js';
import { CANCEL_NOT_YOURS, LINK_GONE, LINK_NOT_FOUND } from '../../contract/texts.js';
import { LinkEntity, type Link } from './entity.js';
import { refundEscrow } from './escrow.js';
import { canCancel } from './policy.js';
import { closeEarly, lockEscrow } from './store.js';

export interface Cancelled {
  /** The link as it is now: closed. */
  link: Link;
  creator: User;
  refundedCents: number;
}

/** The owner takes back their open give link, in the caller's unit of work: it closes and its unused escrow comes back once. */
export async function cancelLink(uow: UnitOfWork, owner: User, linkId: string): Promise<Cancelled> {
  const { em } = uow;
  const link = await em.findOneBy(LinkEntity, { id: linkId });
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (!canCancel(owner, link)) throw forbidden(CANCEL_NOT_YOURS);
  if (link.giveOrReceive !== 'give') throw badRequest('Only a give link can be cancelled.', 'not_a_give_link');
  const now = new Date();
  await lockEscrow(em, escrowAccount(link.id));
  if (!(await closeEarly(em, link.id, now))) throw gone(LINK_GONE);
  const refunded = await refundEscrow(em, link);
  const closed = await em.findOneByOrFail(LinkEntity, { id: link.id });
  const creator = await em.findOneByOrFail(UserEntity, { id: link.creatorId });
  return { link: closed, creator, refundedCents: refunded };
}
