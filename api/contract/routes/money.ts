import {
  CancelSubscriptionBody,
  CancelSubscriptionResponse,
  CreatePaymentIntentBody,
  CreatePaymentIntentResponse,
  CreateSubscriptionBody,
  CreateSubscriptionResponse,
  SandboxConfirmBody,
  SandboxConfirmResponse,
  SubscriptionConfigResponse,
  SubscriptionInfoParams,
  SubscriptionInfoResponse,
} from '../subscriptions.js';
import {
  BalanceResponse,
  CardDepositBody,
  CardDepositStarted,
  ConfirmCardDepositBody,
  DepositBody,
  MoneyHistoryPage,
  MoneyHistoryQuery,
  NewBalanceResponse,
  RemovedCardResponse,
  SavedCardResponse,
  WithdrawalBody,
} from '../wallet.js';
import { json, type RouteSpec } from '../route-table.js';

/** The balance, deposits and withdrawals, the money history and the weekly subscription. */
export const moneyRoutes = {
  'GET /api/billing-settings-balance': { answers: [json(200, BalanceResponse, 'The balance in dollars')] },
  'POST /api/billing-settings-deposit': { body: DepositBody, answers: [json(200, NewBalanceResponse, 'The balance after the deposit')] },
  'POST /api/billing-settings-withdrawal': {
    body: WithdrawalBody,
    answers: [json(200, NewBalanceResponse, 'The balance after the withdrawal')],
  },
  'POST /api/wallet/card-deposit': {
    body: CardDepositBody,
    answers: [
      json(200, NewBalanceResponse, 'The balance after the card deposit'),
      json(202, CardDepositStarted, 'With `elements`: the PaymentIntent the page confirms with Stripe Elements'),
    ],
  },
  'POST /api/wallet/card-deposit/confirm': {
    body: ConfirmCardDepositBody,
    answers: [json(200, NewBalanceResponse, 'The balance after the card deposit')],
  },
  'GET /api/wallet/card': { answers: [json(200, SavedCardResponse, 'The card saved for deposits, or null')] },
  'DELETE /api/wallet/card': { answers: [json(200, RemovedCardResponse, 'The saved card is removed, at the provider and here')] },
  'GET /api/wallet/history': {
    query: MoneyHistoryQuery,
    answers: [json(200, MoneyHistoryPage, 'One page of the money history, newest first')],
  },
  'GET /api/wallet/history.csv': {
    query: MoneyHistoryQuery,
    answers: [{ status: 200, media: 'text/csv', description: 'The whole money history (with the same filter) as a CSV attachment' }],
  },
  'GET /subscriptions/config': { answers: [json(200, SubscriptionConfigResponse, 'How the subscription page takes a card')] },
  'POST /subscriptions/create-payment-intent': {
    body: CreatePaymentIntentBody,
    answers: [json(200, CreatePaymentIntentResponse, 'The secret the page confirms the first payment with')],
  },
  'POST /subscriptions/create-subscription': {
    body: CreateSubscriptionBody,
    answers: [json(200, CreateSubscriptionResponse, 'The subscription is active')],
  },
  'GET /subscriptions/get-subscription-info/:userId': {
    params: SubscriptionInfoParams,
    answers: [json(200, SubscriptionInfoResponse, "The user's own subscription")],
  },
  'POST /subscriptions/cancel': {
    body: CancelSubscriptionBody,
    answers: [json(200, CancelSubscriptionResponse, 'Whether the subscription is now canceled (at the period end)')],
  },
  'POST /subscriptions/sandbox/confirm': {
    body: SandboxConfirmBody,
    answers: [json(200, SandboxConfirmResponse, 'The sandbox card payment succeeded')],
  },
} satisfies Record<string, RouteSpec>;
