import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { presentAddress } from './presenter.js';
import { ADDRESS_NOT_FOUND } from '../../contract/texts.js';
import { AddressBody, type AddressResponse, type OrdersResponse, type SaveAddressResponse } from '../../contract/orders.js';
import { deleteAddress, getAddress, listOrders, saveAddress } from './service.js';

/**
 * The caller's own shipping address (`/api/users/me/address`: "me" is the session's user, never a
 * path or a body) and their item orders (`GET /api/orders`, received and sent).
 */
export function orderRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api' });

  router.get('/users/me/address', authenticate, async (ctx) => {
    const address = await getAddress(deps.db, currentUser(ctx).id);
    const body: AddressResponse = { address: address ? presentAddress(address) : null };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.put(
    '/users/me/address',
    authenticate,
    validate({ body: AddressBody }, async (ctx, { body }) => {
      const saved = await saveAddress(deps.db, currentUser(ctx).id, body);
      const answer: SaveAddressResponse = { address: presentAddress(saved.address), placedOrders: saved.placedOrders };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = answer;
    }),
  );

  router.delete('/users/me/address', authenticate, async (ctx) => {
    if (!(await deleteAddress(deps.db, currentUser(ctx).id))) throw notFound(ADDRESS_NOT_FOUND);
    ctx.status = 204;
  });

  router.get('/orders', authenticate, async (ctx) => {
    const body: OrdersResponse = await listOrders(deps.db, currentUser(ctx).id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
