import {
  CancelSubscriptionResponse,
  CreatePaymentIntentResponse,
  CreateSubscriptionResponse,
  SandboxConfirmResponse,
  SubscriptionConfigResponse,
  SubscriptionInfoResponse,
} from '../../../contract/subscriptions.js';
import { BalanceResponse, CardDepositStarted, MoneyHistoryPage, NewBalanceResponse, SavedCardResponse } from '../../../contract/wallet.js';
import { json, type AnswerMap } from './shape.js';

/** The balance, deposits and withdrawals, the money history and the weekly subscription. */
export const moneyAnswers: AnswerMap = {
  'GET /api/billing-settings-balance': [json(200, BalanceResponse, 'The balance in dollars')],
  'POST /api/billing-settings-deposit': [json(200, NewBalanceResponse, 'The balance after the deposit')],
  'POST /api/billing-settings-withdrawal': [json(200, NewBalanceResponse, 'The balance after the withdrawal')],
  'POST /api/wallet/card-deposit': [
    json(200, NewBalanceResponse, 'The balance after the card deposit'),
    json(202, CardDepositStarted, 'With `elements`: the PaymentIntent the page confirms with Stripe Elements'),
  ],
  'POST /api/wallet/card-deposit/confirm': [json(200, NewBalanceResponse, 'The balance after the card deposit')],
  'GET /api/wallet/card': [json(200, SavedCardResponse, 'The card saved for deposits, or null')],
  'GET /api/wallet/history': [json(200, MoneyHistoryPage, 'One page of the money history, newest first')],
  'GET /api/wallet/history.csv': [
    { status: 200, media: 'text/csv', description: 'The whole money history (with the same filter) as a CSV attachment' },
  ],
  'GET /subscriptions/config': [json(200, SubscriptionConfigResponse, 'How the subscription page takes a card')],
  'POST /subscriptions/create-payment-intent': [
    json(200, CreatePaymentIntentResponse, 'The secret the page confirms the first payment with'),
  ],
  'POST /subscriptions/create-subscription': [json(200, CreateSubscriptionResponse, 'The subscription is active')],
  'GET /subscriptions/get-subscription-info/:userId': [json(200, SubscriptionInfoResponse, "The user's own subscription")],
  'POST /subscriptions/cancel': [json(200, CancelSubscriptionResponse, 'Whether the subscription is now canceled (at the period end)')],
  'POST /subscriptions/sandbox/confirm': [json(200, SandboxConfirmResponse, 'The sandbox card payment succeeded')],
};
