import Router from '@koa/router';
import { endSession } from '../auth/session.js';
import type { Deps } from '../deps.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { perAddress } from '../http/rate-limit.js';
import { serve } from '../http/route.js';
import { closeAccount } from './close.js';
import { exportAccount, exportFileName } from './export.js';
import type { DeleteAccountResponse } from '../../contract/account.js';

/**
 * The caller's own account: `GET /api/account/export` (Download my data, a JSON
 * attachment) and `POST /api/account/delete` (Delete my account, confirmed with the password and
 * rate-limited like login, since it checks one).
 */
export function accountRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  const { authRateLimit, authRateWindowSeconds } = deps.config;

  serve(router, 'GET /api/account/export', [authenticate], async (ctx) => {
    const user = currentUser(ctx);
    const data = await exportAccount(deps, user);
    ctx.set('Content-Disposition', `attachment; filename=${exportFileName(user.username, deps.clock())}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(data, null, 2);
  });

  serve(
    router,
    'POST /api/account/delete',
    [authenticate, perAddress(deps.limits, 'account-delete', authRateLimit, authRateWindowSeconds)],
    async (ctx, { body }) => {
      await closeAccount(deps, currentUser(ctx), body.password);
      await endSession(deps, ctx);
      ctx.body = { closed: true } satisfies DeleteAccountResponse;
    },
  );

  return router;
}
