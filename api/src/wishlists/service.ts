import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { WishlistItemSummary } from '../../contract/auth.js';
import type { Catalog } from '../catalog/catalog.js';
import { productCents } from '../../contract/money.js';
import type { SearchProduct } from '../../contract/catalog.js';
import { findProduct } from '../catalog/service.js';
import type { Database } from '../db/index.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../errors.js';
import { UserEntity, type User } from '../users/entity.js';
import { WISHLIST_MAX_ITEMS, WishlistEntity, WishlistItemEntity, type WishlistItem } from './entity.js';
import { canArchiveItem, canEditWishlist, canSeePurchase, canSeeReceived } from './policy.js';
import { presentWishlist } from './presenter.js';
import {
  ARCHIVE_NOT_PURCHASED,
  ITEM_INFO_ERROR,
  ITEM_NOT_FOUND,
  NOT_PURCHASED,
  SHIPPING_ERROR,
  TOO_MANY_ITEMS,
  USER_NOT_FOUND,
  WISHLIST_BUSY,
} from '../../contract/texts.js';
import {
  type ArchiveItemBody,
  type TransactionQuery,
  type TransactionResponse,
  type UpdateWishlistBody,
  type WishlistView,
} from '../../contract/wishlists.js';

export interface WishlistDeps {
  db: Database;
  catalog: Catalog;
}

/** The catalogue's product as a wishlist item copies it. */
type ProductFields = Pick<
  WishlistItem,
  'itemId' | 'name' | 'title' | 'priceCents' | 'shippingCents' | 'shippingType' | 'condition' | 'description' | 'imageUrl' | 'allImages'
>;

export async function findOwner(db: Database, username: string): Promise<User> {
  const owner = await db.manager.findOneBy(UserEntity, { username: username.toLowerCase() });
  if (!owner || owner.closedAt) throw notFound(USER_NOT_FOUND);
  return owner;
}

/** All the owner's items, archived ('Received') ones included, in list order. */
const listItems = (em: EntityManager, ownerId: string) =>
  em.find(WishlistItemEntity, { where: { ownerId }, order: { position: 'ASC', createdAt: 'ASC' } });

/** The items on the list: not archived. These are the ones that count toward the seven. */
const onList = (items: WishlistItem[]) => items.filter((i) => i.archivedAt === null);

/**
 * Resolves one catalogue product into the fields a wishlist item keeps. The price must be a
 * positive amount; the first shipping option must carry a cost (0 allowed). For CALCULATED
 * shipping that cost is the marketplace's estimate, and it is what a purchase charges.
 */
export async function resolveProduct(catalog: Catalog, itemId: string): Promise<ProductFields> {
  let product: SearchProduct;
  try {
    product = await findProduct(catalog, itemId);
  } catch (err) {
    // An unknown product is a bad item in the request, not a missing resource.
    if (err instanceof AppError && err.status === 404) throw badRequest(ITEM_INFO_ERROR, 'item_unavailable');
    throw err;
  }
  const { price, shipping } = productCents(product);
  if (price === undefined || price <= 0) throw badRequest(ITEM_INFO_ERROR, 'item_unavailable');

  const option = Array.isArray(product.shippingOptions) ? product.shippingOptions[0] : undefined;
  const shippingType = option?.shippingCostType;
  if (shipping === undefined || (shippingType !== 'FIXED' && shippingType !== 'CALCULATED'))
    throw badRequest(SHIPPING_ERROR, 'shipping_unavailable');

  const imageUrl = product.image?.imageUrl ?? '';
  const extra = Array.isArray(product.additionalImages) ? product.additionalImages.map((i) => i.imageUrl) : [];
  const allImages = [...new Set([imageUrl, ...extra].filter((u) => typeof u === 'string' && u.length > 0 && u.length <= 2048))];
  const title = String(product.title ?? '').slice(0, 255);
  return {
    itemId: product.itemId,
    name: title,
    title,
    priceCents: price,
    shippingCents: shipping,
    shippingType,
    condition: String(product.condition ?? '').slice(0, 64),
    description: String(product.description ?? '').slice(0, 10_000),
    imageUrl: imageUrl.slice(0, 2048),
    allImages: JSON.stringify(allImages.slice(0, 21)),
  };
}

/**
 * Takes the wishlist's lock for this transaction: an update of its row, which on PostgreSQL
 * holds a row lock until commit (SQLite's transactions already take turns). Creates the row
 * first when asked (the wishlist's first save). False when the owner has no wishlist yet.
 */
export async function lockWishlist(em: EntityManager, ownerId: string, now: Date, create: boolean): Promise<boolean> {
  if (create)
    await em.createQueryBuilder().insert().into(WishlistEntity).values({ ownerId, createdAt: now, updatedAt: now }).orIgnore().execute();
  const locked = await em
    .createQueryBuilder()
    .update(WishlistEntity)
    .set({ updatedAt: now })
    .where('owner_id = :ownerId', { ownerId })
    .execute();
  return locked.affected === 1;
}

/** The public wishlist of `username` (empty when they never saved one); its 'Received' section for its owner only. */
export async function getWishlist(db: Database, username: string, viewer: User | null): Promise<WishlistView> {
  const owner = await findOwner(db, username);
  return presentWishlist(owner, await listItems(db.manager, owner.id), canSeeReceived(viewer, owner));
}

/** The user's wishlist images, for login's `wishlistItems` (the client preloads them). */
export async function wishlistImages(db: Database, userId: string): Promise<WishlistItemSummary[]> {
  const items = onList(await listItems(db.manager, userId));
  return items.map((i) => ({ _id: i.id, imageUrl: i.imageUrl }));
}

/**
 * Saves the owner's wishlist as the list in the request, every item copied from the catalogue.
 *
 * Purchased items cannot be removed or altered by an edit: each keeps its row, its data and its
 * slot (position). A request entry stands for a purchased item when it carries that item's `_id`
 * (or, lacking any `_id`, the same catalogue itemId); such entries are skipped, and purchased
 * items the request leaves out stay all the same. The request's other entries become the
 * unpurchased items, in request order, filling the free slots from the top. An entry carrying
 * the `_id` of an unpurchased item with the same itemId keeps that `_id` (and so does an entry
 * without `_id` whose itemId matches one); the rest get new ids. Purchased plus unpurchased must
 * stay within seven. Archived ('Received') items are no part of the list: an edit never touches
 * them, and an entry carrying an archived item's `_id` is skipped (a client that had not seen the
 * archive yet).
 */
export async function updateWishlist(deps: WishlistDeps, owner: User, input: z.output<typeof UpdateWishlistBody>): Promise<WishlistView> {
  if (!canEditWishlist(owner, { username: input.username })) throw forbidden();
  if (input.items.length > WISHLIST_MAX_ITEMS) throw badRequest(TOO_MANY_ITEMS, 'too_many_items');

  // The catalogue may be a remote marketplace: resolve before the transaction, in request order.
  const products = new Map<string, ProductFields>();
  for (const { itemId } of input.items) if (!products.has(itemId)) products.set(itemId, await resolveProduct(deps.catalog, itemId));

  return deps.db.transaction(async (em) => {
    const now = new Date();
    await lockWishlist(em, owner.id, now, true);
    const all = await listItems(em, owner.id);
    const archived = new Set(all.filter((i) => i.archivedAt !== null).map((i) => i.id));
    const current = onList(all);
    const purchasedLeft = new Map(current.filter((i) => i.purchased).map((i) => [i.id, i]));
    const openLeft = new Map(current.filter((i) => !i.purchased).map((i) => [i.id, i]));

    // 1. Entries standing for purchased items are skipped: by _id, then by itemId (entries without _id).
    const entries = input.items.filter(
      (entry) => !(entry._id !== undefined && (purchasedLeft.delete(entry._id) || archived.has(entry._id))),
    );
    const wanted = entries.filter((entry) => {
      if (entry._id !== undefined) return true;
      const same = [...purchasedLeft.values()].find((p) => p.itemId === entry.itemId);
      if (!same) return true;
      purchasedLeft.delete(same.id);
      return false;
    });

    // 2. The rest are the unpurchased items; reuse existing rows by _id, then by itemId.
    const plan: { itemId: string; keep?: WishlistItem }[] = wanted.map((entry) => {
      const row = entry._id !== undefined ? openLeft.get(entry._id) : undefined;
      if (row && row.itemId === entry.itemId) {
        openLeft.delete(row.id);
        return { itemId: entry.itemId, keep: row };
      }
      return { itemId: entry.itemId };
    });
    for (const [i, step] of plan.entries()) {
      if (step.keep || wanted[i]._id !== undefined) continue;
      const row = [...openLeft.values()].find((o) => o.itemId === step.itemId);
      if (row) {
        openLeft.delete(row.id);
        step.keep = row;
      }
    }

    const purchased = current.filter((i) => i.purchased);
    if (purchased.length + plan.length > WISHLIST_MAX_ITEMS) throw badRequest(TOO_MANY_ITEMS, 'too_many_items');

    // 3. Purchased items keep their slots; the others fill the free slots in order.
    const taken = new Set(purchased.map((p) => p.position));
    let slot = 0;
    const nextSlot = () => {
      while (taken.has(slot)) slot += 1;
      return slot++;
    };

    const removed = [...openLeft.keys()];
    if (removed.length)
      await em
        .createQueryBuilder()
        .delete()
        .from(WishlistItemEntity)
        .where('id IN (:...removed) AND purchased = :no', { removed, no: false })
        .execute();
    for (const step of plan) {
      const fields = products.get(step.itemId);
      if (!fields) throw new Error(`wishlist: product ${step.itemId} was not resolved`);
      const position = nextSlot();
      if (step.keep) {
        const changed = await em.update(WishlistItemEntity, { id: step.keep.id, purchased: false }, { ...fields, position });
        if (changed.affected !== 1) throw conflict(WISHLIST_BUSY, 'wishlist_busy');
      } else {
        await em.insert(WishlistItemEntity, {
          ...fields,
          id: crypto.randomUUID(),
          ownerId: owner.id,
          position,
          purchased: false,
          purchasedAt: null,
          purchaserId: null,
          transferId: null,
          createdAt: now,
        });
      }
    }

    const saved = await listItems(em, owner.id);
    if (onList(saved).length > WISHLIST_MAX_ITEMS) throw conflict(WISHLIST_BUSY, 'wishlist_busy');
    return presentWishlist(owner, saved, true);
  });
}

/**
 * Moves a purchased item of the owner's list into their 'Received' section (`canArchiveItem`): it
 * leaves the list, frees its slot and no longer counts toward the seven. Archiving an item already
 * received changes nothing. Answers the owner's wishlist as saved.
 */
export async function archiveItem(db: Database, viewer: User, input: z.output<typeof ArchiveItemBody>): Promise<WishlistView> {
  if (!canEditWishlist(viewer, { username: input.username })) throw forbidden();
  return db.transaction(async (em) => {
    const now = new Date();
    if (!(await lockWishlist(em, viewer.id, now, false))) throw notFound(ITEM_NOT_FOUND);
    const item = await em.findOneBy(WishlistItemEntity, { id: input.itemId, ownerId: viewer.id });
    if (!item) throw notFound(ITEM_NOT_FOUND);
    if (!canArchiveItem(viewer, { username: input.username }, item)) throw badRequest(ARCHIVE_NOT_PURCHASED, 'not_purchased');
    if (item.archivedAt === null)
      await em
        .createQueryBuilder()
        .update(WishlistItemEntity)
        .set({ archivedAt: now })
        .where('id = :id AND purchased = :yes AND archived_at IS NULL', { id: item.id, yes: true })
        .execute();
    return presentWishlist(viewer, await listItems(em, viewer.id), true);
  });
}

/**
 * One item of the owner's wishlist named by `ref`: its `_id`, or else a catalogue itemId. For an
 * itemId, `prefer` picks among several: the first unpurchased one (for buying), or the buyer's
 * own / the latest purchased one (for the purchase record).
 */
export async function findItem(
  em: EntityManager,
  ownerId: string,
  ref: string,
  prefer: { open: true } | { open: false; viewerId: string },
): Promise<WishlistItem | null> {
  const byId = await em.findOneBy(WishlistItemEntity, { id: ref, ownerId });
  if (byId) return byId;
  const matches = await em.find(WishlistItemEntity, { where: { ownerId, itemId: ref }, order: { position: 'ASC' } });
  if (prefer.open) return matches.find((m) => !m.purchased) ?? matches[0] ?? null;
  const bought = matches.filter((m) => m.purchased).sort((a, b) => (b.purchasedAt?.getTime() ?? 0) - (a.purchasedAt?.getTime() ?? 0));
  return bought.find((m) => m.purchaserId === prefer.viewerId) ?? bought[0] ?? matches[0] ?? null;
}

/**
 * When an item was bought: for the wishlist's owner and for its buyer only (403 for anyone else,
 * whether or not the item exists). Names no one.
 */
export async function purchaseTransaction(
  db: Database,
  viewer: User,
  query: z.output<typeof TransactionQuery>,
): Promise<TransactionResponse> {
  const owner = await db.manager.findOneBy(UserEntity, { username: query.wishlistUsername });
  const item = owner ? await findItem(db.manager, owner.id, query.itemId, { open: false, viewerId: viewer.id }) : null;
  if (!owner) throw notFound(USER_NOT_FOUND);
  if (!canSeePurchase(viewer, owner, item)) throw forbidden();
  if (!item) throw notFound(ITEM_NOT_FOUND);
  if (!item.purchased || !item.purchasedAt) throw notFound(NOT_PURCHASED);
  return { wishlistTransactionData: { createdAt: item.purchasedAt.toISOString() } };
}
