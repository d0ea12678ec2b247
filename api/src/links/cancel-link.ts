import { badRequest, forbidden, gone, notFound } from '../errors.js';
import { withIdempotency, type IdempotentAnswer } from '../http/idempotency.js';
import { escrowAccount } from '../money/ledger.js';
import { UserEntity, type User } from '../users/entity.js';
import { centsToDollars } from '../../contract/money.js';
import { CANCEL_NOT_YOURS, LINK_GONE, LINK_NOT_FOUND } from '../../contract/texts.js';
import type { CancelLinkResponse } from '../../contract/links.js';
import { LinkEntity } from './entity.js';
import { refundEscrow } from './escrow.js';
import { canCancel } from './policy.js';
import { presentLink } from './presenter.js';
import { closeEarly, lockEscrow } from './store.js';
import type { LinkDeps } from './use.js';

/** The owner takes back their open give link: it closes and its unused escrow comes back once. */
export async function cancelLink(
  deps: Pick<LinkDeps, 'db'>,
  owner: User,
  linkId: string,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<CancelLinkResponse>> {
  const request = { key: idempotencyKey, userId: owner.id, scope: 'links.cancel', input: linkId };
  return withIdempotency(deps.db, request, async (em) => {
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
    return { status: 200, body: { link: presentLink(closed, creator), refunded: centsToDollars(refunded) } };
  });
}
