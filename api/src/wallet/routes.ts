import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import { sendAnswer } from '../http/answer.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { centsToDollars } from '../../contract/money.js';
import { readIdempotencyKey } from '../money/idempotency.js';
import { moneyHistory, moneyHistoryCsv } from './history.js';
import { DepositBody, MoneyHistoryQuery, WithdrawalBody, type BalanceResponse } from '../../contract/wallet.js';
import { deposit, getBalanceCents, withdraw, type WalletDeps } from './service.js';

/** The user's balance, deposits and withdrawals (paths as the spec names them). */
export function walletRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const wallet: WalletDeps = { db: deps.db, payments: deps.payments, log: deps.log };
  const router = new Router<AppState>({ prefix: '/api' });

  router.get('/billing-settings-balance', authenticate, async (ctx) => {
    const body: BalanceResponse = { balance: centsToDollars(await getBalanceCents(deps.db, currentUser(ctx).id)) };
    ctx.body = body;
  });

  router.post(
    '/billing-settings-deposit',
    authenticate,
    validate({ body: DepositBody }, async (ctx, { body }) => {
      const { id: userId } = actingUser(ctx, { userId: body.userId });
      sendAnswer(ctx, await deposit(wallet, { userId, amountCents: body.balance, idempotencyKey: readIdempotencyKey(ctx) }));
    }),
  );

  router.post(
    '/billing-settings-withdrawal',
    authenticate,
    validate({ body: WithdrawalBody }, async (ctx, { body }) => {
      const { id: userId } = actingUser(ctx, { userId: body.userId });
      sendAnswer(ctx, await withdraw(wallet, { userId, amountCents: body.balance, idempotencyKey: readIdempotencyKey(ctx) }));
    }),
  );

  // The money history: the signed-in user's own, always (a `userId` naming anyone else is a 403).
  router.get(
    '/wallet/history',
    authenticate,
    validate({ query: MoneyHistoryQuery }, async (ctx, { query }) => {
      const { id: userId } = actingUser(ctx, { userId: query.userId });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await moneyHistory(deps.db.manager, userId, query);
    }),
  );

  router.get(
    '/wallet/history.csv',
    authenticate,
    validate({ query: MoneyHistoryQuery }, async (ctx, { query }) => {
      const { id: userId } = actingUser(ctx, { userId: query.userId });
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="giftlink-money-history${query.kind ? `-${query.kind}` : ''}.csv"`);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = await moneyHistoryCsv(deps.db.manager, userId, query.kind);
    }),
  );

  return router;
}
