import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import { isPostgres, run, sql } from '../db/sql.js';
import { badRequest, forbidden, gone, notFound } from '../errors.js';
import { withIdempotency, type IdempotentAnswer } from '../money/idempotency.js';
import { balanceOf, escrowAccount, transfer, userAccount } from '../money/ledger.js';
import type { User } from '../users/entity.js';
import { UserEntity } from '../users/entity.js';
import { centsToDollars } from '../../contract/money.js';
import { CANCEL_NOT_YOURS, LINK_GONE, LINK_NOT_FOUND } from '../../contract/texts.js';
import type { CancelLinkResponse } from '../../contract/links.js';
import { LinkEntity } from './entity.js';
import { canCancel } from './policy.js';
import { presentLink } from './presenter.js';
import type { LinkDeps } from './use.js';

/** PostgreSQL: the escrow's row first, as an accept's release locks it before the link's row (no deadlock). */
const LOCK_ESCROW = sql('SELECT 1 FROM ledger_accounts WHERE key = $1 FOR UPDATE');

/**
 * Closes an open give link early by the conditional update a use takes (`status = 'active'`), so
 * of a cancel and a racing accept exactly one wins each use; the escrow left after it is refunded.
 */
async function closeEarly(em: EntityManager, linkId: string, now: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ status: 'expired', closedAt: now })
    .where('id = :id AND status = :active AND remaining_quantity > 0 AND expires_at > :now', {
      id: linkId,
      active: 'active',
      now: dateParam(em, now),
    })
    .execute();
  return result.affected === 1;
}

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
    if (isPostgres(em)) await run(em, LOCK_ESCROW, [escrowAccount(link.id)]);
    if (!(await closeEarly(em, link.id, now))) throw gone(LINK_GONE);
    const held = await balanceOf(em, escrowAccount(link.id));
    if (held > 0) await transfer(em, { from: escrowAccount(link.id), to: userAccount(link.creatorId), amountCents: held, kind: 'refund' });
    const closed = await em.findOneByOrFail(LinkEntity, { id: link.id });
    const creator = await em.findOneByOrFail(UserEntity, { id: link.creatorId });
    return { status: 200, body: { link: presentLink(closed, creator), refunded: centsToDollars(held) } };
  });
}
