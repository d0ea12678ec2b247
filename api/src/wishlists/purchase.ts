import { deliverGift } from '../commands/deliver-gift.js';
import { giftNoteText, recordGiftNote } from '../conversations/gift-note.js';
import type { Database } from '../db/index.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import type { UnitOfWork } from '../http/unit-of-work.js';
import { SYSTEM_MARKETPLACE, insufficientFunds, userAccount } from '../money/ledger.js';
import type { User } from '../users/entity.js';
import { checkTakingGifts } from '../users/pause.js';
import { assertCanReach } from '../blocks/service.js';
import { WishlistItemEntity } from './entity.js';
import { canBuyFrom } from './policy.js';
import { findItem, findOwner, lockWishlist } from './service.js';
import { ALREADY_PURCHASED, ITEM_NOT_FOUND, ITEM_UNAVAILABLE, OWN_ITEM, SHIPPING_ERROR } from '../../contract/texts.js';

export interface PurchaseInput {
  wishlistUsername: string;
  itemId: string;
  note?: string;
  /** A card authorisation paying for the item (the route lands it in the same transaction). */
  authorisation?: string;
}

export interface Purchase {
  conversationId: string;
}

/** Every refusal a purchase can meet, before a card pays for it: answers what it will cost. */
export async function checkPurchase(
  db: Database,
  buyer: User,
  input: { wishlistUsername: string; itemId: string },
): Promise<{ costCents: number; recipientId: string }> {
  const owner = await findOwner(db, input.wishlistUsername);
  if (!canBuyFrom(buyer, owner)) throw badRequest(OWN_ITEM, 'own_item');
  await checkTakingGifts(db.manager, owner.id);
  const item = await findItem(db.manager, owner.id, input.itemId, { open: true });
  if (!item) throw notFound(ITEM_NOT_FOUND);
  if (item.purchased) throw conflict(ALREADY_PURCHASED, 'already_purchased');
  if (item.shippingCents === null) throw badRequest(SHIPPING_ERROR, 'shipping_unavailable');
  const between = { giverId: buyer.id, recipientId: owner.id, identity: 'anonymous' } as const;
  await db.transaction((em) => assertCanReach(em, buyer.id, between, () => forbidden(ITEM_UNAVAILABLE)));
  return { costCents: item.priceCents + item.shippingCents, recipientId: owner.id };
}

/** The wishlist's owner, read before the unit of work: no one buys from their own wishlist. */
export async function purchasableOwner(db: Database, buyer: User, wishlistUsername: string): Promise<User> {
  const owner = await findOwner(db, wishlistUsername);
  if (!canBuyFrom(buyer, owner)) throw badRequest(OWN_ITEM, 'own_item');
  return owner;
}

/** The purchase as a repeat of its Idempotency-Key must ask for it: the note as it will be written. */
export function purchaseRequest(owner: User, input: PurchaseInput): object {
  const note = giftNoteText(input.note);
  return {
    ownerId: owner.id,
    itemId: input.itemId,
    ...(note ? { note } : {}),
    ...(input.authorisation ? { authorisation: input.authorisation } : {}),
  };
}

/**
 * Buys an item of someone's wishlist for them, in the caller's unit of work: the item turns
 * purchased by a conditional update (so of racing buyers exactly one gets it, the others a 409),
 * the buyer pays price + shipping to the marketplace (for CALCULATED shipping, the catalogue's
 * estimate saved with the item), the gift message opens or reuses the conversation with the owner,
 * and the owner is notified (live, once the transaction has committed); the buyer's note, if any,
 * follows the gift from the same persona. The buyer stays anonymous to the owner. Nothing is kept
 * when any step fails.
 */
export async function purchaseItem(uow: UnitOfWork, buyer: User, owner: User, input: PurchaseInput): Promise<Purchase> {
  const { em } = uow;
  const note = giftNoteText(input.note);
  const now = new Date();
  await checkTakingGifts(em, owner.id);
  if (!(await lockWishlist(em, owner.id, now, false))) throw notFound(ITEM_NOT_FOUND);
  const item = await findItem(em, owner.id, input.itemId, { open: true });
  if (!item) throw notFound(ITEM_NOT_FOUND);
  const taken = await em
    .createQueryBuilder()
    .update(WishlistItemEntity)
    .set({ purchased: true, purchasedAt: now, purchaserId: buyer.id })
    .where('id = :id AND purchased = :no', { id: item.id, no: false })
    .execute();
  if (taken.affected !== 1) throw conflict(ALREADY_PURCHASED, 'already_purchased');
  if (item.shippingCents === null) throw badRequest(SHIPPING_ERROR, 'shipping_unavailable');

  const delivered = await deliverGift(em, {
    giverId: buyer.id,
    recipientId: owner.id,
    identity: 'anonymous',
    amountCents: item.priceCents + item.shippingCents,
    payment: {
      from: userAccount(buyer.id),
      to: SYSTEM_MARKETPLACE,
      kind: 'purchase',
      actorUserId: buyer.id,
      insufficient: insufficientFunds,
    },
    text: `You received a gift from your wishlist: ${item.title}!`,
    card: { title: item.title, giftType: 'item', img: item.imageUrl || null },
    source: {
      type: 'wishlist',
      giveOrReceive: 'give',
      linkOrWishlist: 'wishlist',
      relatedPostId: item.id,
      itemTitle: item.title,
      itemId: item.itemId,
    },
  });
  await em.update(WishlistItemEntity, { id: item.id }, { transferId: delivered.transferId });
  if (note) uow.afterCommit((await recordGiftNote(em, delivered.conversation, buyer.id, note)).event);
  return { conversationId: delivered.conversation.id };
}
