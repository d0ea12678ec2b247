import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentAddress } from './presenter.js';
import { ADDRESS_NOT_FOUND } from '../../contract/texts.js';
import type { AddressResponse, OrdersResponse, SaveAddressResponse } from '../../contract/orders.js';
import { deleteAddress, getAddress, listOrders, saveAddress } from './service.js';

/**
 * The caller's own shipping address (`/api/users/me/address`: "me" is the session's user, never a
 * path or a body) and their item orders (`GET /api/orders`, received and sent).
 */
export function orderRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/users/me/address', [authenticate], async (ctx) => {
    const address = await getAddress(deps.db, currentUser(ctx).id);
    const body: AddressResponse = { address: address ? presentAddress(address) : null };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  serve(router, 'PUT /api/users/me/address', [authenticate], async (ctx, { body }) => {
    const saved = await saveAddress(deps.db, currentUser(ctx).id, body);
    const answer: SaveAddressResponse = { address: presentAddress(saved.address), placedOrders: saved.placedOrders };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  serve(router, 'DELETE /api/users/me/address', [authenticate], async (ctx) => {
    if (!(await deleteAddress(deps.db, currentUser(ctx).id))) throw notFound(ADDRESS_NOT_FOUND);
    ctx.status = 204;
  });

  serve(router, 'GET /api/orders', [authenticate], async (ctx) => {
    const body: OrdersResponse = await listOrders(deps.db, currentUser(ctx).id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
