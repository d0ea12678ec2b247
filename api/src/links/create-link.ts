import crypto from 'node:crypto';
import type { z } from 'zod';
import { findProduct } from '../catalog/service.js';
import { badRequest, isUniqueViolation } from '../errors.js';
import { formatCents, productCents } from '../../contract/money.js';
import { ITEM_INFO_ERROR } from '../../contract/texts.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { escrowAccount, insufficientFunds, transfer, userAccount } from '../money/ledger.js';
import type { User } from '../users/entity.js';
import { LinkEntity, type Link } from './entity.js';
import { closeExpired } from './expiry.js';
import { INCOMPLETE_LINK, ONE_ACTIVE_LINK, QUANTITY_REQUIRED } from '../../contract/texts.js';
import type { LinkDetailsInput } from '../../contract/links.js';
import type { LinkDeps } from './use.js';

/** A link as its details price it, before the transaction that makes it. */
export interface LinkPlan {
  details: z.output<typeof LinkDetailsInput>;
  amountCents: number;
  quantity: number;
  title: string | null;
  photo: string | null;
  itemId: string | null;
  totalCostCents: number;
}

/** Checks a new link's details and prices it (an item from the catalogue), outside any transaction. */
export async function planLink(deps: Pick<LinkDeps, 'catalog'>, details: z.output<typeof LinkDetailsInput>): Promise<LinkPlan> {
  const quantityInput = details.initialQuantity ?? details.quantity;
  let amountCents: number;
  let quantity: number;
  let title: string | null = null;
  let photo: string | null = null;
  let itemId: string | null = null;
  if (details.type === 'currency') {
    if (details.amount === undefined) throw badRequest(INCOMPLETE_LINK, 'incomplete_link');
    if (details.giveorreceive === 'give' && quantityInput === undefined) throw badRequest(QUANTITY_REQUIRED, 'quantity_required');
    amountCents = details.amount;
    // A receive link has no quantity: its amount is the goal that any number of givers fill together.
    quantity = details.giveorreceive === 'give' ? (quantityInput ?? 1) : 1;
    title = formatCents(amountCents);
  } else {
    if (!details.itemId) throw badRequest(INCOMPLETE_LINK, 'incomplete_link');
    const product = await findProduct(deps.catalog, details.itemId);
    const { price, shipping } = productCents(product);
    if (price === undefined || shipping === undefined) throw badRequest(ITEM_INFO_ERROR, 'item_unavailable');
    amountCents = price + shipping;
    quantity = 1;
    title = product.title.slice(0, 255);
    photo = product.image?.imageUrl ?? null;
    itemId = product.itemId;
  }
  const totalCostCents = amountCents * quantity;
  if (!Number.isSafeInteger(totalCostCents) || totalCostCents >= 100_000_000)
    throw badRequest('A link can hold less than $1,000,000 in all.', 'too_large');
  return { details, amountCents, quantity, title, photo, itemId, totalCostCents };
}

/**
 * Creates the user's one active link (planned by `planLink`) in the caller's unit of work. A give
 * link moves its whole cost into the link's escrow in the same transaction; an expired link of
 * theirs is closed (and refunded) first.
 */
export async function createLink(uow: UnitOfWork, deps: Pick<LinkDeps, 'linkTtlHours'>, user: User, plan: LinkPlan): Promise<Link> {
  const { em } = uow;
  const { details, amountCents, quantity, title, photo, itemId, totalCostCents } = plan;
  const now = new Date();
  await closeExpired(em, { creatorId: user.id, now });
  const link: Link = {
    id: crypto.randomUUID(),
    creatorId: user.id,
    type: details.type,
    giveOrReceive: details.giveorreceive,
    amountCents,
    initialQuantity: quantity,
    remainingQuantity: quantity,
    title,
    photo,
    itemId,
    totalCostCents,
    raisedCents: 0,
    gifts: 0,
    status: 'active',
    views: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.linkTtlHours * 3600_000),
    closedAt: null,
  };
  if (await em.existsBy(LinkEntity, { creatorId: user.id, status: 'active' })) throw badRequest(ONE_ACTIVE_LINK, 'one_active_link');
  try {
    await em.insert(LinkEntity, link);
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(ONE_ACTIVE_LINK, 'one_active_link');
    throw err;
  }
  if (link.giveOrReceive === 'give') {
    await transfer(em, {
      from: userAccount(user.id),
      to: escrowAccount(link.id),
      amountCents: totalCostCents,
      kind: 'escrow',
      actorUserId: user.id,
      insufficient: insufficientFunds,
    });
  }
  return link;
}
