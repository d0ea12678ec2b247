import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import { sendAnswer } from '../http/answer.js';
import type { AppState } from '../http/context.js';
import { validate } from '../http/validate.js';
import { centsToDollars } from '../../contract/money.js';
import { readIdempotencyKey } from '../money/idempotency.js';
import { moneyHistory, moneyHistoryCsv } from './history.js';
import {
  CardDepositBody,
  ConfirmCardDepositBody,
  DepositBody,
  MoneyHistoryQuery,
  WithdrawalBody,
  type BalanceResponse,
  type SavedCardResponse,
} from '../../contract/wallet.js';
import type { CardSource } from '../payments/provider.js';
import { balanceHolds, cardDeposit, deposit, getBalanceCents, startCardElementsDeposit, withdraw, type WalletDeps } from './service.js';
import { confirmCardElements } from './card-elements.js';
import { badRequest } from '../errors.js';

/** The user's balance, deposits and withdrawals (paths as the spec names them). */
export function walletRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const wallet: WalletDeps = { db: deps.db, payments: deps.payments, log: deps.log };
  const router = new Router<AppState>({ prefix: '/api' });

  router.get('/billing-settings-balance', authenticate, async (ctx) => {
    const { id } = currentUser(ctx);
    const cents = await getBalanceCents(deps.db, id);
    const body: BalanceResponse = { balance: centsToDollars(cents), ...(await balanceHolds(deps.db, id, cents)) };
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
    '/wallet/card-deposit',
    authenticate,
    validate({ body: CardDepositBody }, async (ctx, { body }) => {
      const { id: userId } = currentUser(ctx);
      const idempotencyKey = readIdempotencyKey(ctx);
      if (body.elements) {
        if (body.card) throw badRequest('Card details go to Stripe, not to Giftlink.', 'invalid_card');
        sendAnswer(
          ctx,
          await startCardElementsDeposit(wallet, { userId, amountCents: body.amount, idempotencyKey, save: body.save ?? false }),
        );
        return;
      }
      const source: CardSource = body.card ? { kind: 'card', card: body.card, save: body.save ?? false } : { kind: 'saved' };
      sendAnswer(ctx, await cardDeposit(wallet, { userId, amountCents: body.amount, idempotencyKey, source }));
    }),
  );

  // The page confirmed its Stripe Elements card payment: settled from what Stripe says of it.
  router.post(
    '/wallet/card-deposit/confirm',
    authenticate,
    validate({ body: ConfirmCardDepositBody }, async (ctx, { body }) => {
      const answer = await confirmCardElements(wallet, { userId: currentUser(ctx).id, paymentIntentId: body.paymentIntentId });
      ctx.status = answer.status;
      ctx.body = answer.body;
    }),
  );

  router.get('/wallet/card', authenticate, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const body: SavedCardResponse = { card: await deps.payments.savedCard(currentUser(ctx).id) };
    ctx.body = body;
  });

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
