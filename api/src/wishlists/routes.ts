import Router from '@koa/router';
import { withCardHold } from '../wallet/card-hold.js';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { moneyRoute, type MoneyRequest } from '../http/unit-of-work.js';
import type { PurchaseResponse, WishlistResponse } from '../../contract/wishlists.js';
import { archiveItem, getWishlist, purchaseTransaction, updateWishlist } from './service.js';
import { purchasableOwner, purchaseItem, purchaseRequest } from './purchase.js';
import { drawShareImagesSoon } from '../sharing/prerender.js';

/** Wishlists: view (public), edit and archive into 'Received' (owner), buy an item (others), the purchase's date. */
export function wishlistRoutes(deps: Deps, { authenticate, optionalAuth }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  // Registered before /:username so that this path is not read as a username.
  serve(router, 'GET /wishlists/get-transaction', [authenticate], async (ctx, { query }) => {
    ctx.body = await purchaseTransaction(deps.db, currentUser(ctx), query);
  });

  serve(router, 'PUT /wishlists/update', [authenticate], async (ctx, { body }) => {
    const userWishlist = await updateWishlist({ db: deps.db, catalog: deps.catalog }, currentUser(ctx), body);
    ctx.body = { userWishlist } satisfies WishlistResponse;
    drawShareImagesSoon(deps, 'wishlist', currentUser(ctx).username);
  });

  // The owner moves a purchased item into their 'Received' section.
  serve(router, 'POST /wishlists/archive', [authenticate], async (ctx, { body }) => {
    ctx.body = { userWishlist: await archiveItem(deps.db, currentUser(ctx), body) } satisfies WishlistResponse;
  });

  // One atomic call: the item turns purchased, the buyer pays, the gift is recorded, the owner is told.
  serve(router, 'POST /wishlists/purchase', [authenticate], async (ctx, { body }) => {
    const buyer = actingUser(ctx, { userId: body.purchaserUserId });
    const owner = await purchasableOwner(deps.db, buyer, body.wishlistUsername);
    const hold = body.authorisation && { intentId: body.authorisation, userId: buyer.id, identity: 'anonymous' as const };
    const request: MoneyRequest<PurchaseResponse> = {
      userId: buyer.id,
      scope: 'wishlists.purchase',
      input: purchaseRequest(owner, body),
      around: hold ? (run) => withCardHold(deps, hold, run) : undefined,
    };
    await moneyRoute(
      deps,
      ctx,
      request,
      (uow) => purchaseItem(uow, buyer, owner, body),
      (bought) => ({ status: 200, body: bought }),
    );
  });

  serve(router, 'GET /wishlists/:username', [optionalAuth], async (ctx, { params }) => {
    ctx.body = { userWishlist: await getWishlist(deps.db, params.username, ctx.state.user ?? null) } satisfies WishlistResponse;
  });

  return router;
}
