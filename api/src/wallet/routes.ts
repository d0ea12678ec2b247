import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { actingUser, currentUser, type AuthMiddleware } from '../http/auth.js';
import { sendAnswer } from '../http/answer.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { readIdempotencyKey } from '../http/idempotency.js';
import { runMoneySteps } from '../http/unit-of-work.js';
import { moneyHistory, moneyHistoryCsv } from './history.js';
import type { CardGiftTarget, RemovedCardResponse, SavedCardResponse } from '../../contract/wallet.js';
import { cardStillSaved, type CardSource } from '../payments/provider.js';
import {
  balanceHolds,
  cardDepositSteps,
  cardElementsSteps,
  cardHoldSteps,
  depositSteps,
  getBalanceCents,
  withdrawalSteps,
  type WalletDeps,
} from './service.js';
import { confirmCardElements, withClientSecret } from './card-elements.js';
import { presentBalance, presentOutcome } from './presenter.js';
import { guardCardPayment, noteCardRefusal } from './card-guard.js';
import { badRequest } from '../errors.js';
import { payingIdentity } from '../identity/identity.js';
import { checkGive } from '../links/give-check.js';
import { insufficientFunds } from '../money/ledger.js';
import type { User } from '../users/entity.js';
import { checkPurchase } from '../wishlists/purchase.js';

/**
 * Every refusal the gift could meet, and the balance rule: the balance and this deposit together
 * pay for it. Answers the identity that pays: the persona the gift goes out as.
 */
async function checkGiftFirst(deps: Deps, user: User, target: CardGiftTarget, depositCents: number): Promise<string> {
  const { costCents, recipientId } =
    target.kind === 'give'
      ? await checkGive(deps.db, user, { postId: target.postId, amountCents: target.amount })
      : await checkPurchase(deps.db, user, target);
  if ((await getBalanceCents(deps.db, user.id)) + depositCents < costCents) throw insufficientFunds();
  return payingIdentity(user.id, recipientId);
}

/** The user's balance, deposits and withdrawals (paths as the spec names them). */
export function walletRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const wallet: WalletDeps = { db: deps.db, payments: deps.payments, log: deps.log };
  const router = new Router<AppState>();

  serve(router, 'GET /api/billing-settings-balance', [authenticate], async (ctx) => {
    ctx.body = await balanceHolds(deps.db, currentUser(ctx).id);
  });

  serve(router, 'POST /api/billing-settings-deposit', [authenticate], async (ctx, { body }) => {
    const { id: userId } = actingUser(ctx, { userId: body.userId });
    const steps = depositSteps(wallet, { userId, amountCents: body.balance });
    sendAnswer(ctx, await runMoneySteps(deps, readIdempotencyKey(ctx), userId, steps, presentBalance));
  });

  serve(router, 'POST /api/wallet/card-deposit', [authenticate], async (ctx, { body }) => {
    const user = currentUser(ctx);
    const userId = user.id;
    const idempotencyKey = readIdempotencyKey(ctx);
    // What it pays for is checked before the card is touched: a gift that cannot land charges nothing.
    const identity = body.for ? await checkGiftFirst(deps, user, body.for, body.amount) : payingIdentity(userId);
    if (body.elements) {
      if (body.card) throw badRequest('Card details go to Stripe, not to Giftlink.', 'invalid_card');
      const steps = cardElementsSteps(wallet, { userId, amountCents: body.amount, save: body.save ?? false, target: body.for });
      const start = () => runMoneySteps(deps, idempotencyKey, userId, steps, presentOutcome);
      const answer = await guardCardPayment(deps, { userId, identity, client: ctx.ip, source: null }, start);
      // A repeat of the key: the kept outcome names the PaymentIntent, whose secret is read again.
      if (answer.replayed && 'paymentIntentId' in answer.body) answer.body = await withClientSecret(wallet, answer.body);
      sendAnswer(ctx, answer);
      return;
    }
    const source: CardSource = body.card ? { kind: 'card', card: body.card, save: body.save ?? false } : { kind: 'saved' };
    const request = { userId, amountCents: body.amount, source };
    const target = body.for;
    const steps = target ? cardHoldSteps(wallet, { ...request, target }) : cardDepositSteps(wallet, request);
    const pay = () => runMoneySteps(deps, idempotencyKey, userId, steps, presentOutcome);
    sendAnswer(ctx, await guardCardPayment(deps, { userId, identity, client: ctx.ip, source }, pay));
  });

  // The page confirmed its Stripe Elements card payment: settled from what Stripe says of it.
  serve(router, 'POST /api/wallet/card-deposit/confirm', [authenticate], async (ctx, { body }) => {
    const { id: userId } = currentUser(ctx);
    const outcome = await confirmCardElements(wallet, { userId, paymentIntentId: body.paymentIntentId }).catch(async (err: unknown) => {
      await noteCardRefusal(deps, payingIdentity(userId), err);
      throw err;
    });
    const answer = presentBalance(outcome);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  serve(router, 'GET /api/wallet/card', [authenticate], async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const body: SavedCardResponse = { card: await deps.payments.savedCard(currentUser(ctx).id) };
    ctx.body = body;
  });

  // A card payment already under way keeps its own hold of the card, so it settles as it would.
  serve(router, 'DELETE /api/wallet/card', [authenticate], async (ctx) => {
    const { id: userId } = currentUser(ctx);
    await deps.payments.removeCard(userId);
    if (await deps.payments.savedCard(userId)) throw cardStillSaved();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { card: null } satisfies RemovedCardResponse;
  });

  serve(router, 'POST /api/billing-settings-withdrawal', [authenticate], async (ctx, { body }) => {
    const { id: userId } = actingUser(ctx, { userId: body.userId });
    const steps = withdrawalSteps(wallet, { userId, amountCents: body.balance });
    sendAnswer(ctx, await runMoneySteps(deps, readIdempotencyKey(ctx), userId, steps, presentBalance));
  });

  // The money history: the signed-in user's own, always (a `userId` naming anyone else is a 403).
  serve(router, 'GET /api/wallet/history', [authenticate], async (ctx, { query }) => {
    const { id: userId } = actingUser(ctx, { userId: query.userId });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await moneyHistory(deps.db.manager, userId, query);
  });

  serve(router, 'GET /api/wallet/history.csv', [authenticate], async (ctx, { query }) => {
    const { id: userId } = actingUser(ctx, { userId: query.userId });
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="giftlink-money-history${query.kind ? `-${query.kind}` : ''}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await moneyHistoryCsv(deps.db.manager, userId, query.kind);
  });

  return router;
}
